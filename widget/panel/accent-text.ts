// The text colour on the accent (primary buttons, the comparison's handle): white or near-black,
// whichever reads at WCAG's 4.5:1 on the accent the shop set. CSS has no contrast-color() in every
// browser yet, so the panel works it out from the resolved accent and hands it to its CSS as the
// private `--_accent-auto`; a shop's own `--tryon-accent-text` still wins (tryon-panel.styles.ts).
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export const WHITE = '#ffffff';
export const NEAR_BLACK = '#0b1120';
const BLACK = '#000000';
const MINIMUM = 4.5;

/** sRGB channels (0–255) of a computed colour: `rgb(…)`, `rgba(…)` or `color(srgb …)`. */
function channels(colour: string): [number, number, number] | undefined {
  const rgb = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/.exec(colour);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  const srgb = /^color\(srgb\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)/.exec(colour);
  if (srgb) return [Number(srgb[1]) * 255, Number(srgb[2]) * 255, Number(srgb[3]) * 255];
  return undefined;
}

function hex(colour: string): [number, number, number] {
  const n = Number.parseInt(colour.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** WCAG 2 relative luminance. */
function luminance([r, g, b]: [number, number, number]): number {
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function contrastRatio(a: [number, number, number], b: [number, number, number]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * White or near-black, the one with more contrast on `accent` (a computed colour). Around a
 * luminance of 0.19 neither reaches 4.5:1 (both about 4.35): there pure black does (≥ 4.58).
 * Undefined when the colour cannot be read (a colour space other than sRGB).
 */
export function textOn(accent: string): string | undefined {
  const rgb = channels(accent);
  if (!rgb) return undefined;
  const [best] = [WHITE, NEAR_BLACK]
    .map((text) => ({ text, ratio: contrastRatio(rgb, hex(text)) }))
    .sort((a, b) => b.ratio - a.ratio) as [{ text: string; ratio: number }];
  return best.ratio >= MINIMUM ? best.text : BLACK;
}

/**
 * Keeps `--_accent-auto` on the host right for the accent its CSS resolves (read as the computed
 * `accent-color` of `probe`): after every update, and when the colour scheme changes (the dark
 * scheme has its own default accent). A shop changing `--tryon-accent` later is caught by a
 * MutationObserver on the style and class attributes of the element and its ancestors.
 */
export class AccentTextController implements ReactiveController {
  readonly #host: ReactiveControllerHost & HTMLElement;
  readonly #probe: () => Element | null | undefined;
  #scheme: MediaQueryList | undefined;
  #observer: MutationObserver | undefined;
  #warned = '';

  constructor(host: ReactiveControllerHost & HTMLElement, probe: () => Element | null | undefined) {
    this.#host = host;
    this.#probe = probe;
    host.addController(this);
  }

  readonly #update = (): void => {
    const probe = this.#probe();
    if (!probe) return;
    const accent = getComputedStyle(probe).accentColor;
    const text = textOn(accent);
    if (!text) {
      // The CSS default (white, or near-black in the dark scheme) stays: say so once per colour.
      if (this.#warned !== accent)
        console.warn(
          `<tryon-button>: cannot work out a readable text colour on the accent ${accent}; set --tryon-accent-text.`,
        );
      this.#warned = accent;
      this.#host.style.removeProperty('--_accent-auto');
      return;
    }
    if (this.#host.style.getPropertyValue('--_accent-auto') !== text)
      this.#host.style.setProperty('--_accent-auto', text);
  };

  hostConnected(): void {
    this.#scheme = matchMedia('(prefers-color-scheme: dark)');
    this.#scheme.addEventListener('change', this.#update);
    this.#observer = new MutationObserver(this.#update);
    // The accent may be set on <tryon-button> or any ancestor (a theme's wrapper, the page's root);
    // not on the panel itself, whose style this controller writes.
    let node: Node | null = this.#host.parentNode;
    for (; node; node = node instanceof ShadowRoot ? node.host : node.parentNode) {
      if (node instanceof Element)
        this.#observer.observe(node, { attributes: true, attributeFilter: ['style', 'class'] });
    }
  }

  hostUpdated(): void {
    this.#update();
  }

  hostDisconnected(): void {
    this.#scheme?.removeEventListener('change', this.#update);
    this.#observer?.disconnect();
  }
}
