// The widget tests' side of the fake proxy (fake-proxy.js): a scenario per test, what it logs, and
// the scenarios several tests share (a product in two colours, renders that wait at a hold).

export interface FakeRequest {
  method: string;
  path: string;
  at: number;
  body?: Record<string, unknown>;
  upload?: { multipart: boolean; field?: string; partType?: string; bytes: number; jpeg: boolean; exif: boolean };
  /** The request waited at a `{hold: true}` step. */
  held?: boolean;
  /** The page gave the held request up (closed it) before the release. */
  closedByClient?: boolean;
  /** Answered with the outage's 502 page (`outageAfterPreview`). */
  outage?: boolean;
}

export interface FakeStep {
  status?: string;
  outputs?: string[];
  video?: boolean;
  hold?: boolean;
  /** Every output's URL in this answer, instead of its file's (`{file}` in it is the file's own path). */
  url?: string;
  error?: { code: string; message: string; retryable: boolean };
  /** The first look's status beside this step (`succeeded` carries `preview-<variant->front.png`). */
  preview?: 'queued' | 'processing' | 'succeeded' | 'failed';
  /** The proxy's check of this answer's outputs against the product, as the status carries it. */
  fidelity?: {
    verdict: string;
    views: { view: string; colour: { deltaE: number }; coverage: string }[];
    rerender?: 'running' | 'done' | 'failed';
  };
}

export interface FakeError {
  status: number;
  code: string;
  retryable?: boolean;
  retryAfter?: number;
  raw?: string;
  destroy?: boolean;
  /** Redirected to a port where nothing listens: a refused connection, a network error in every engine. */
  refused?: boolean;
}

export interface Scenario {
  product?: {
    product?: string;
    views: string[];
    video: boolean;
    tier: string;
    name?: string;
    retention?: { photoSeconds: number; resultSeconds: number };
    /** GET /products' availability today (absent: available, as from an older proxy). */
    available?: boolean;
    unavailableReason?: string;
    /** The variants the fake lists and accepts; without it, any `variant` is refused as unknown_variant. */
    variants?: { id: string; name: string; swatch?: string }[];
    /** The product's own garment image (GET /products' `swatch`), shown beside a result whose colours may differ. */
    swatch?: string;
    /** How many other colours may be previewed per photo; beyond it POST /tryons answers colour_preview_limit. */
    colourPreviews?: number;
    /** Whether the photo check asks for the whole body (GET /products' `fullBody`). */
    fullBody?: boolean;
    /** The shop's models the product lists ("See it on a model"). */
    models?: { id: string; name: string; image: string }[];
    /** GET /products' typical seconds (`image[n - 1]` for n views, `video`); absent as from an older proxy. */
    typicalSeconds?: { image: number[]; video?: number };
    /** The pieces that go with it ("Complete the look"); a piece over a try-on must be one of them. */
    pairs?: { product: string; name: string; image: string; variants: { id: string; name: string }[] }[];
  } | null;
  /** The steps of a piece rendered over a try-on (`over`); default: its first look, then its render. */
  pieceSteps?: FakeStep[];
  /** How many pieces one outfit may hold, the first try-on included, before `outfit_too_long` (default 3). */
  outfitMax?: number;
  /** Errors served, one per piece over a try-on, before the fake judges it. */
  pieceErrors?: FakeError[];
  /** Reads of GET /handoffs/{h} before the fake's hand-off is received. */
  handoffReadsUntilReceived?: number;
  /** How many hand-offs hear from a phone at all (default: every one); later ones stay waiting. */
  handoffsAnswered?: number;
  /** No phone answers until the first `fake.release()`. */
  handoffHold?: boolean;
  /** The number the fake's hand-off wants typed, and how many wrong ones it allows. */
  handoffNumber?: string;
  handoffTries?: number;
  photoErrors?: FakeError[];
  tryonErrors?: FakeError[];
  forgetErrors?: FakeError[];
  statusErrors?: FakeError[];
  sse?: boolean;
  sseDelayMs?: number;
  photoHold?: boolean;
  /** Every GET /products/… waits for the first `fake.release()`. */
  productHold?: boolean;
  /** How long an uploaded photo's handle stays valid. */
  photoExpiresInMs?: number;
  holdPolls?: boolean;
  steps?: FakeStep[];
  /** The steps of the first try-on only; every later one takes `steps` (a retry that works). */
  firstSteps?: FakeStep[];
  videoSteps?: FakeStep[];
  /** The steps of a colour preview (`quality: "preview"`); its files are `draft-<variant>-front.png`. */
  colourSteps?: FakeStep[];
  /** The cap the fake itself holds on colour previews per photo, when it differs from the product's (a proxy's refusal). */
  colourPreviewCap?: number;
  /** The HTTP status GET /files/… answers; 200 unless told. */
  fileStatus?: number;
  /** File names (`front.png`, `preview-front.png`, `draft-<variant>-front.png`) answered 404: a picture that does not load. */
  brokenFiles?: string[];
  /** How many GET /files/… are served (no-store) before `fileStatus` applies; from the first unless told. */
  fileFailsAfter?: number;
  /**
   * From the first poll carrying a succeeded first look, every request answers a gateway's 502 page
   * (a stopped proxy behind nginx), that first look's picture included, until `fake.endOutage()`.
   */
  outageAfterPreview?: boolean;
}

export interface Fake {
  endpoint: string;
  log(): Promise<FakeRequest[]>;
  release(): Promise<void>;
  /** The bytes of the last photo uploaded, exactly as the widget sent them. */
  photo(): Promise<Uint8Array>;
  /** Ends the outage of `outageAfterPreview`: the proxy answers again. */
  endOutage(): Promise<void>;
}

export async function fakeProxy(scenario: Scenario = {}): Promise<Fake> {
  const sid = crypto.randomUUID().replace(/-/g, '').slice(0, 12);
  const response = await fetch(`/fake-control/${sid}`, { method: 'POST', body: JSON.stringify(scenario) });
  if (!response.ok) throw new Error(`fake proxy control failed: ${response.status}`);
  return {
    endpoint: `/fake/${sid}/tryon`,
    log: async () => (await (await fetch(`/fake-control/${sid}/log`)).json()) as FakeRequest[],
    release: async () => {
      await fetch(`/fake-control/${sid}/release`, { method: 'POST' });
    },
    endOutage: async () => {
      await fetch(`/fake-control/${sid}/outage`, { method: 'POST' });
    },
    photo: async () => {
      const response = await fetch(`/fake-control/${sid}/photo`);
      if (!response.ok) throw new Error(`no photo was uploaded: ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    },
  };
}

/** A saree in two colours, as GET /products answers it (the cart and variant tests). */
export const SAREE_IN_TWO_COLOURS = {
  views: ['front'],
  video: false,
  tier: 'draft',
  name: 'Banarasi saree',
  variants: [
    { id: 'ivory', name: 'Ivory' },
    { id: 'sindoor-red', name: 'Sindoor red' },
  ],
};

/** A render that waits at the fake's hold after "queued" (until `fake.release()`), then succeeds. */
export const HELD_AFTER_QUEUED: FakeStep[] = [
  { status: 'queued' },
  { hold: true },
  { status: 'succeeded', outputs: ['front'] },
];

/** A render that waits at the fake's hold after "queued" and again after "processing". */
export const HELD_TWICE: FakeStep[] = [
  { status: 'queued' },
  { hold: true },
  { status: 'processing' },
  { hold: true },
  { status: 'succeeded', outputs: ['front'] },
];
