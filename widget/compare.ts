// The before/after divide as a reactive controller: its position (0–100, the share of the
// "before" photo shown from the start edge), moved by keyboard or pointer, right-to-left aware.
// The position reaches CSS through the CSSOM, never a style attribute, so that a shop's strict
// Content-Security-Policy (no style-src-attr 'unsafe-inline') has nothing to block.
import type { ReactiveController, ReactiveControllerHost } from 'lit';

const isRtl = (node: Element) => getComputedStyle(node).direction === 'rtl';

export class CompareController implements ReactiveController {
  position = 50;

  readonly #host: ReactiveControllerHost;
  readonly #area: () => HTMLElement | null | undefined;

  constructor(
    host: ReactiveControllerHost,
    area: () => HTMLElement | null | undefined,
  ) {
    this.#host = host;
    this.#area = area;
    host.addController(this);
  }

  hostUpdated(): void {
    this.#area()?.style.setProperty('--pos', `${this.position}%`);
  }

  /** A new result starts from the middle again. */
  reset(): void {
    this.position = 50;
  }

  hostDisconnected(): void {
    this.reset();
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
      ArrowRight: rtl ? -5 : 5, ArrowLeft: rtl ? 5 : -5, ArrowUp: 5, ArrowDown: -5, PageUp: 25, PageDown: -25,
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
    const box = area.getBoundingClientRect();
    if (box.width === 0) return;
    const fraction = (event.clientX - box.left) / box.width;
    this.#set(Math.max(0, Math.min(1, isRtl(area) ? 1 - fraction : fraction)) * 100);
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
