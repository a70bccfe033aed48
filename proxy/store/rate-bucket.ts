// The per-client rate limits every store counts: writes (uploads, try-ons, hand-offs) and reads
// (status, files). A leaf module: the store interface and the photo revocations' combined read
// check (photos/revocations.ts) both name it, and neither may import the other.
export type RateBucket = 'writes' | 'reads';
