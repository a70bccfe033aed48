// What a prepared photo is and what a photo may be: the limits, the error with its figures for the
// shopper's message, the result, and what the product needs the photo to show. Shared by the page (photo.ts, photo-step.ts) and the photo
// preparation's worker (prep/worker.ts), which is why it is a module of its own.
export const MAX_INPUT_BYTES = 25 * 1024 * 1024;
export const MIN_SHORT_SIDE = 256;
export const MAX_LONG_SIDE = 2048;
export const JPEG_QUALITY = 0.88;

export type PhotoProblem = 'not_image' | 'too_small' | 'too_large' | 'unreadable';

export class PhotoError extends Error {
  readonly problem: PhotoProblem;
  readonly width: number | undefined;
  readonly height: number | undefined;
  /** The input's size in MB, one decimal, for the too-large message. */
  readonly sizeMb: number | undefined;

  constructor(
    problem: PhotoProblem,
    message: string,
    facts: { width?: number; height?: number; sizeMb?: number } = {},
  ) {
    super(message);
    this.name = 'PhotoError';
    this.problem = problem;
    this.width = facts.width;
    this.height = facts.height;
    this.sizeMb = facts.sizeMb;
  }
}

export interface PreparedPhoto {
  /** Always a JPEG encoded here: no metadata of the original survives. */
  blob: Blob;
  /** Pixel size after orientation. */
  width: number;
  height: number;
  type: string;
}

/** What a product needs the photo to show: the whole body, head to feet, or the upper body. */
export type BodyNeeded = 'whole' | 'upper';

/**
 * What the product (the proxy's answer, `fullBody`) needs of the photo; undefined until it is
 * known. The tips say it and the photo check asks it, so they never contradict each other.
 */
export function bodyNeeded(product: { fullBody?: boolean } | undefined): BodyNeeded | undefined {
  return product ? (product.fullBody === true ? 'whole' : 'upper') : undefined;
}
