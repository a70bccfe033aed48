// Before and after as a reactive controller: what the picture shows (the try-on whole, the
// shopper's own photo whole, or the two side by side under a divide), and the divide's position
// (0–100, the share of the "before" photo shown from the start edge), moved by keyboard or
// pointer, right-to-left aware. The try-on comes first and whole: the shopper's first sight of
// themselves in the garment is never half a picture; the photo and the divide are asked for.
// It travels over the result's drawn box only: a portrait shown with object-fit: contain leaves
// blank margins beside it, and a divide moving over those would show no change.
// The position reaches CSS through the CSSOM, never a style attribute, so that a shop's strict
// Content-Security-Policy (no style-src-attr 'unsafe-inline') has nothing to block.
import type { ReactiveController, ReactiveControllerHost } from 'lit';

const isRtl = (node: Element) => getComputedStyle(node).direction === 'rtl';

/** Where the image is drawn inside the area, in px from the area's inline-start padding edge. */
interface DrawnBox {
  start: number;
  size: number;
  end: number;
}

/** The drawn box of the area's result image: object-fit: contain, centred, from its natural size. */
function drawnBox(area: HTMLElement): DrawnBox | undefined {
  const image = area.querySelector<HTMLImageElement>('img[part="image"]');
  if (!image || image.clientWidth === 0) return undefined;
  const width = image.clientWidth;
  const scale =
    image.naturalWidth && image.naturalHeight
      ? Math.min(width / image.naturalWidth, image.clientHeight / image.naturalHeight)
      : 0;
  // Not decoded yet: the element's own box, until its load event places the divide again.
  const size = scale ? image.naturalWidth * scale : width;
  const left = image.offsetLeft + (width - size) / 2;
  const start = isRtl(area) ? area.clientWidth - left - size : left;
  return { start, size, end: area.clientWidth - start - size };
}

/** What the picture shows: the try-on, the shopper's photo, or both under the divide. */
export type Shown = 'result' | 'photo' | 'compare';

export class CompareController implements ReactiveController {
  position = 50;
  shown: Shown = 'result';

  readonly #host: ReactiveControllerHost;
  readonly #area: () => HTMLElement | null | undefined;
  #placed: HTMLElement | undefined;
  #resize: ResizeObserver | undefined;
  readonly #place = (): void => {
    const area = this.#area();
    if (!area) return;
    const box = drawnBox(area) ?? { start: 0, size: area.clientWidth, end: 0 };
    area.style.setProperty('--pos', `${this.position}%`);
    area.style.setProperty('--box-start', `${box.start}px`);
    area.style.setProperty('--box-size', `${box.size}px`);
    area.style.setProperty('--box-end', `${box.end}px`);
    area.style.setProperty('--handle', `${box.start + (box.size * this.position) / 100}px`);
  };

  constructor(host: ReactiveControllerHost, area: () => HTMLElement | null | undefined) {
    this.#host = host;
    this.#area = area;
    host.addController(this);
  }

  hostUpdated(): void {
    const area = this.#area() ?? undefined;
    // A new comparison (a new result, another view): watch its size and its image's decoding.
    if (area !== this.#placed) {
      this.#resize?.disconnect();
      this.#placed = area;
      if (area) {
        this.#resize ??= new ResizeObserver(this.#place);
        this.#resize.observe(area);
        const image = area.querySelector('img[part="image"]');
        if (image) {
          this.#resize.observe(image);
          image.addEventListener('load', this.#place);
        }
      }
    }
    this.#place();
  }

  /** A new result starts whole again, and its divide from the middle. */
  reset(): void {
    this.position = 50;
    this.shown = 'result';
  }

  /** The try-on whole again (the full render took the first look's place). */
  showResult(): void {
    if (this.shown === 'result') return;
    this.shown = 'result';
    this.#host.requestUpdate();
  }

  /** "Show my photo" (a toggle): the shopper's photo whole in the try-on's place, then back. */
  readonly togglePhoto = (): void => {
    this.shown = this.shown === 'photo' ? 'result' : 'photo';
    this.#host.requestUpdate();
  };

  /** "Before and after" (a toggle): the divide over the two, from the middle, then the try-on whole again. */
  readonly toggleCompare = (): void => {
    this.shown = this.shown === 'compare' ? 'result' : 'compare';
    this.position = 50;
    this.#host.requestUpdate();
  };

  hostDisconnected(): void {
    this.reset();
    this.#resize?.disconnect();
    this.#placed = undefined;
  }

  #set(value: number): void {
    const next = Math.round(Math.max(0, Math.min(100, value)));
    if (next === this.position) return;
    this.position = next;
    this.#host.requestUpdate();
  }

  /** Arrow keys by 5, Page Up/Down by 25, Home and End to the edges (the slider pattern). */
  readonly onKey = (event: KeyboardEvent): void => {
    const rtl = isRtl(event.currentTarget as Element);
    const steps: Record<string, number> = {
      ArrowRight: rtl ? -5 : 5,
      ArrowLeft: rtl ? 5 : -5,
      ArrowUp: 5,
      ArrowDown: -5,
      PageUp: 25,
      PageDown: -25,
    };
    let value: number | undefined;
    if (event.key in steps) value = this.position + (steps[event.key] ?? 0);
    else if (event.key === 'Home') value = 0;
    else if (event.key === 'End') value = 100;
    if (value === undefined) return;
    event.preventDefault();
    this.#set(value);
  };

  /** Press or drag anywhere on the comparison. */
  readonly onPointer = (event: PointerEvent): void => {
    const area = event.currentTarget as HTMLElement;
    if (event.type === 'pointerdown') capture(area, event.pointerId);
    else if (event.buttons === 0) return;
    const rect = area.getBoundingClientRect();
    // Measured now: the image may have been decoded or resized since the divide was last placed.
    const drawn = drawnBox(area);
    if (!drawn || drawn.size === 0) return;
    // The drawn box's physical left edge: its start offset, counted from the right when right to left.
    const rtl = isRtl(area);
    const left = rect.left + area.clientLeft + (rtl ? drawn.end : drawn.start);
    const fraction = (event.clientX - left) / drawn.size;
    this.#set(Math.max(0, Math.min(1, rtl ? 1 - fraction : fraction)) * 100);
  };
}

/**
 * Keeps a drag on the comparison when the pointer leaves it. Firefox throws when the pointer is
 * no longer active (released before the handler ran, or a pointer the page made up); the press
 * still moves the divide, it only loses the capture.
 */
function capture(area: Element, pointerId: number): void {
  try {
    area.setPointerCapture?.(pointerId);
  } catch (error) {
    if (!(error instanceof DOMException && error.name === 'NotFoundError')) throw error;
  }
}
