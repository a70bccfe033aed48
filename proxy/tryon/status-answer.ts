// The text of GET /tryons/{h}'s answer, remembered per try-on handle for as long as nothing it is
// made of changes: the try-on's snapshot and its first look's (the board hands out the same
// snapshot object until a newer one replaces it), and the minute its file URLs expire at. A widget
// polls a finished try-on every few seconds, and each read would otherwise mint its file handles
// and serialise the same body again. The handle's own checks (signature, expiry, a
// forgotten photo, the rate limit) run on every read before this is asked.
import { fileExpiryOf, statusBody } from './status-body.js';
import type { TryonSnapshot } from './status.js';
import type { TryonClaims } from '../security/handles.js';
import type { ProxyServices } from '../services.js';

interface Kept {
  snapshot: TryonSnapshot;
  preview: TryonSnapshot | undefined;
  fileExpiry: number;
  text: string;
}

/** At most this many answers are kept (a few hundred bytes each); the oldest goes first. */
const KEPT_ANSWERS = 4096;

export class StatusAnswers {
  private readonly kept = new Map<string, Kept>();

  constructor(
    private readonly services: Pick<ProxyServices, 'now' | 'limits' | 'handles'>,
    private readonly base: string,
  ) {}

  async text(
    handle: string,
    claims: TryonClaims & { expiresAt: number },
    snapshot: TryonSnapshot,
    preview: TryonSnapshot | undefined,
  ): Promise<string> {
    const fileExpiry = fileExpiryOf(this.services, claims);
    const known = this.kept.get(handle);
    if (known && known.snapshot === snapshot && known.preview === preview && known.fileExpiry === fileExpiry) {
      return known.text;
    }
    const text = JSON.stringify(await statusBody(this.services, claims, snapshot, this.base, preview));
    this.kept.delete(handle);
    if (this.kept.size >= KEPT_ANSWERS) this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(handle, { snapshot, preview, fileExpiry, text });
    return text;
  }
}
