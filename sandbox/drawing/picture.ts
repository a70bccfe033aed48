// What a sandbox render is made of, shared by the front render (render.ts), the views turned from it
// (views.ts) and the video (video.ts): a raw picture, the front's layers, and the labels captioned
// on every output. Types only, in a module of their own so that views.ts and render.ts do not
// import each other.
import type { Ellipse } from './figure.js';
import type { Landmarks } from './person.js';
import type { View } from '../api/tryon-request.js';

/** A decoded picture kept raw (RGB) so derived views start from pixels, not a second JPEG pass. */
export interface Picture {
  data: Buffer;
  width: number;
  height: number;
}

export type Colour = { r: number; g: number; b: number };

/** How a front's garment is drawn otherwise: the failures a try-on model shows (misdrawn.ts). */
export interface GarmentChange {
  /** Every garment colour mapped (a drift, another variant's colour). */
  recolour?: (colour: Colour) => Colour;
  /** The garment stops half-way down its length. */
  halfway?: boolean;
  /** No garment at all: the person as they came. */
  bare?: boolean;
}

/**
 * The front render and the layers every other view is made from (the identity lock): the figure
 * wearing the garment on a transparent ground, the drawn backdrop, and where the head is.
 */
export interface Front extends Picture {
  /** RGBA: the person wearing the garment; opaque everywhere when the photo's ground was kept. Made on first use. */
  figure: () => Promise<Buffer>;
  /** RGB: the backdrop alone. */
  backdrop: Buffer;
  head: Ellipse;
  hair: Colour;
  /** Where the garment starts: the head and neck are above. */
  neckY: number;
  /** The body's landmarks in the render's pixels: the person's, or the stand-in figure's. */
  landmarks: Landmarks;
  /** The dressed figure's box in the render's pixels (the "SANDBOX" badge keeps clear of it). */
  figureBox: { left: number; top: number; width: number; height: number };
  /** False when no person was found (or the photo was unreadable) and a stand-in figure is drawn. */
  personFound: boolean;
  draft: boolean;
  /** What could not be read or done, captioned on every output made from this front. */
  notes: string[];
  /** The garment's main colour as its picture gives it. */
  garmentColour: Colour;
  /** The same front with the garment drawn otherwise (the person is not looked for again). */
  redress: (change: GarmentChange) => Promise<Front>;
}

export interface RenderLabels {
  category: string;
  subtype?: string | undefined;
  view: View;
  background: string;
  tier: string;
  provider: string;
}
