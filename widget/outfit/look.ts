// "Complete the look", a chunk of its own loaded when a result's product has pieces that go with it
// (outfit.ts): the pieces offered (picture, name, colour), each rendered over the result on screen
// as a try-on of its own (`over`, as run/tryon-request.ts spells it), its first look shown in the result's place
// and then its full render; the outfit's pieces listed, the last removable (back to the layer
// beneath, kept here: no new render); and the words of all of it in the shopper's language (this
// chunk's own, so the panel and its dictionaries do not grow for a product without pieces).
import { adoptStyles, css, html, nothing } from 'lit';
import type { CSSResult, TemplateResult } from 'lit';
import { networkUrl, ProxyCallError } from '../api/proxy-client.js';
import type { ProductPair, ProxyStatus } from '../api/proxy-client.js';
import { tryonSubject } from '../core/events.js';
import type { CartLine, OutfitPiece, TryonOutput } from '../core/events.js';
import type { DialogContext } from '../core/dialog-context.js';
import { newRequestId } from '../run/settings.js';
import { pieceRequest } from '../run/tryon-request.js';
import { sendConversion } from '../analytics/analytics.js';
import type { TryonRun } from '../run/tryon-run.js';
import { outfitEn } from './i18n/english.js';
import type { OutfitTexts } from './i18n/english.js';

/** What the look reads of the dialog's context. */
export interface OutfitContext extends DialogContext {
  readonly run: TryonRun;
}

/** A piece as the shopper sees it: the product, the colour chosen, and their names. */
interface Piece extends OutfitPiece {
  name: string;
}

/** One layer of the outfit, made: its try-on (the next piece goes over it) and what it shows. */
interface Layer {
  piece: Piece;
  tryon: string;
  outputs: TryonOutput[];
  views: string[];
}

/** The piece being rendered over the top layer: its first look once in, and what stops it. */
interface Making {
  piece: Piece;
  stop: AbortController;
  firstLook?: TryonOutput;
}

/** What the result step shows of the outfit instead of the base try-on. */
export interface ShownLook {
  outputs: TryonOutput[];
  views: string[];
  /** The outfit's pieces by name, in the shopper's language ("Emerald lehenga and Gota dupatta"). */
  name: string;
  fadeFrom: string | undefined;
}

/** The refusals of a piece with words of their own; any other code is said in the dictionary's words for it. */
const refusals = new Set(['not_a_pair', 'base_not_ready', 'outfit_too_long']);

export type LookWords = keyof OutfitTexts;

export class Look {
  /** The base try-on the outfit is built on (the session's): another one ends this outfit. */
  readonly base: string;
  readonly #layers: Layer[] = [];
  #making: Making | undefined;
  /** The last piece's refusal or failure, in words (role=alert), until the next press. */
  #problem = '';
  /** The first look the last full render replaced, fading out over it. */
  #fadeFrom: string | undefined;
  /** The colour chosen for each piece offered (its product id → variant id). */
  readonly #chosen = new Map<string, string>();
  /** A press again after a request that got no answer is the same try-on (same requestId): nothing is charged twice. */
  readonly #requestIds = new Map<string, string>();
  #texts: OutfitTexts = outfitEn;
  #textsFor = 'en';
  readonly #context: OutfitContext;

  constructor(context: OutfitContext, base: string) {
    this.#context = context;
    this.base = base;
  }

  /** The words in the dialog's language: this chunk's own dictionary, loaded once per language, English meanwhile. */
  async words(): Promise<void> {
    const code = this.#context.texts.code;
    if (code === this.#textsFor) return;
    this.#textsFor = code;
    let texts: OutfitTexts = outfitEn;
    if (code !== 'en') {
      try {
        const module = (await import(`./i18n/outfit-${code}.ts`)) as { default?: OutfitTexts };
        texts = module.default ?? outfitEn;
      } catch (error) {
        // Offline mid-session: English stands in, and the next render asks again.
        console.warn(`<tryon-button>: the "${code}" words of "Complete the look" could not be loaded.`, error);
        this.#textsFor = 'en';
      }
    }
    this.#texts = texts;
    this.#context.panel.requestUpdate();
  }

  /** One text: the shop's override (the element's `strings`), else this language's, else English. */
  t(key: LookWords, values: Record<string, string> = {}): string {
    const own = (this.#context.host.strings as Record<string, string | undefined> | undefined)?.[key];
    const text = own ?? this.#texts[key] ?? outfitEn[key];
    return text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
  }

  /** Names joined as the language joins a list ("A, B and C"). */
  #list(names: string[]): string {
    return new Intl.ListFormat(this.#context.texts.code, { type: 'conjunction' }).format(names);
  }

  /** The base's piece: the product tried on, in the colour tried on. */
  get #basePiece(): Piece {
    const { run, host, productName } = this.#context;
    return { ...tryonSubject(run.product?.product || host.product, run.session.variant), name: productName };
  }

  /** Every piece of the outfit, the base first (what `tryon-outfit` and the look's cart lines name). */
  pieces(): OutfitPiece[] {
    return [this.#basePiece, ...this.#layers.map((layer) => layer.piece)].map((p) =>
      tryonSubject(p.product, p.variant),
    );
  }

  /** The try-on of the outfit's last piece (the base's while it has none). */
  get top(): string {
    return this.#layers.at(-1)?.tryon ?? this.base;
  }

  /** Every line of the outfit for the cart: `first`, the base's, then each piece, its cart id its variant's, else its product's. */
  lines(first: CartLine): CartLine[] {
    return [
      first,
      ...this.#layers.map(({ piece: { product, variant } }) => ({
        ...tryonSubject(product, variant),
        item: variant ?? product,
      })),
    ];
  }

  /**
   * "Add the look to cart" put the outfit in the shop's cart: told to the proxy once per add
   * (`POST /tryons/{last piece}/cart`, docs/proxy.md), which counts outfits and pieces added to cart.
   * Not the shopper's concern: a report that fails is said in the console only.
   */
  reportCart(): void {
    this.#context.run
      .client()
      .watched.send(`tryons/${encodeURIComponent(this.top)}/cart`, { pieces: this.pieces() })
      .catch((error: unknown) =>
        console.warn('<tryon-button>: the outfit added to the cart was not reported to the proxy.', error),
      );
  }

  /** How many pieces are over the base. */
  get layers(): number {
    return this.#layers.length;
  }

  /** The outfit by name, base first ("Emerald lehenga and Gota dupatta"). */
  get name(): string {
    return this.#list([this.#basePiece, ...this.#layers.map((layer) => layer.piece)].map((piece) => piece.name));
  }

  /** What the result step shows instead of the base: the top layer, or the first look of the piece being made. */
  shown(): ShownLook | undefined {
    const top = this.#layers.at(-1);
    const first = this.#making?.firstLook;
    if (first) {
      const name = this.#list([this.name, this.#making!.piece.name]);
      return { outputs: [{ ...first, view: top?.views[0] ?? 'front' }], views: [], name, fadeFrom: undefined };
    }
    if (!top) return undefined;
    return { outputs: top.outputs, views: top.views, name: this.name, fadeFrom: this.#fadeFrom };
  }

  /** The pieces offered: the product's pairs not in the outfit, their pictures through the gate of every URL from the network. */
  #offered(): ProductPair[] {
    const base = this.#context.run.client().base;
    const worn = new Set(this.#layers.map((layer) => layer.piece.product));
    return (this.#context.run.product?.pairs ?? []).flatMap((pair) => {
      if (worn.has(pair.product)) return [];
      try {
        return [{ ...pair, image: networkUrl(pair.image, base) }];
      } catch {
        return [];
      }
    });
  }

  #colourOf(pair: ProductPair): string | undefined {
    const chosen = this.#chosen.get(pair.product);
    return pair.variants.some((v) => v.id === chosen) ? chosen : pair.variants[0]?.id;
  }

  /** "Add {piece}": rendered over the top layer (or the base); its first look, then the full render, in the result's place. */
  add(pair: ProductPair): void {
    if (this.#making) return;
    const context = this.#context;
    const variant = this.#colourOf(pair);
    const colour = pair.variants.find((v) => v.id === variant)?.name;
    const piece: Piece = {
      ...tryonSubject(pair.product, variant),
      name: colour ? `${pair.name} (${colour})` : pair.name,
    };
    const over = this.top;
    const key = `${over}|${pair.product}|${variant ?? ''}`;
    const requestId = this.#requestIds.get(key) ?? newRequestId();
    this.#requestIds.set(key, requestId);
    const making: Making = { piece, stop: new AbortController() };
    this.#making = making;
    this.#problem = '';
    context.announce(this.t('addingPiece', { piece: piece.name }));
    context.panel.requestUpdate();
    let tryon = '';
    let views: string[] = [];
    const current = () => this.#making === making;
    const status = (answer: ProxyStatus) => {
      if (!current() || making.firstLook) return;
      const first = answer.status !== 'succeeded' ? firstLookOf(answer) : undefined;
      if (!first) return;
      making.firstLook = first;
      context.announce(this.t('firstLookPiece', { piece: piece.name }));
      context.panel.requestUpdate();
    };
    // Like a colour draft, not the session's try-on: the result stays on screen, and `stop` ends the watch.
    const client = context.run.client();
    const signal = making.stop.signal;
    void client
      .createTryon(pieceRequest(over, piece.product, piece.variant, requestId), signal)
      .then((created) => {
        tryon = created.tryon;
        views = created.views;
        return client.watch(tryon, status, signal);
      })
      .then(
        (final) => {
          if (!current()) return;
          if (final.status === 'succeeded' && final.outputs.some((o) => o.type === 'image')) {
            this.#made({ piece, tryon, outputs: final.outputs, views }, making.firstLook, requestId);
            return;
          }
          // The render itself failed: final upstream, so the next press is a new try-on.
          this.#requestIds.delete(key);
          this.#failed(piece, final.error?.code ?? 'render_failed');
        },
        (error: unknown) => {
          if (!current() || making.stop.signal.aborted) return;
          const code = error instanceof ProxyCallError ? error.code : 'generic';
          // A refusal is final for that request; one that got no answer may be pressed again as the same try-on.
          if (error instanceof ProxyCallError && error.status !== undefined) this.#requestIds.delete(key);
          this.#failed(piece, code);
        },
      );
  }

  #made(layer: Layer, firstLook: TryonOutput | undefined, requestId: string): void {
    const context = this.#context;
    this.#making = undefined;
    this.#layers.push(layer);
    this.#fadeFrom = firstLook?.url;
    const { piece, tryon, outputs } = layer;
    context.emit('tryon-result', { ...tryonSubject(piece.product, piece.variant), tryon, requestId, outputs });
    this.#outfitChanged(this.t('pieceAdded', { piece: piece.name }));
    // A piece added is a conversion of its own (`analytics`); a piece removed is not.
    sendConversion(context.host.analytics, 'tryon_outfit_piece', {
      ...tryonSubject(piece.product, piece.variant),
      pieces: this.#layers.length + 1,
    });
    // The piece's "Add" button is gone from the offers: focus goes to the control that undoes it.
    this.#focus('[data-remove-piece]');
  }

  #failed(piece: Piece, code: string): void {
    const context = this.#context;
    this.#making = undefined;
    const message = refusals.has(code)
      ? this.t(code as LookWords, { piece: piece.name })
      : code === 'render_failed' || code === 'generic'
        ? this.t('pieceFailed', { piece: piece.name })
        : context.texts.errorMessage(code);
    this.#problem = message;
    context.emit('tryon-error', {
      ...tryonSubject(piece.product, piece.variant),
      code,
      message,
      retryable: !refusals.has(code),
    });
    // The alert says it; the live region would say it twice.
    context.announce('');
    context.panel.requestUpdate();
  }

  /** "Remove {piece}": the last piece goes, and the layer beneath it is shown again (kept: no new render). */
  removeLast(): void {
    if (this.#making) return;
    const layer = this.#layers.pop();
    if (!layer) return;
    this.#fadeFrom = undefined;
    this.#problem = '';
    this.#outfitChanged(this.t('pieceRemoved', { piece: layer.piece.name }));
    this.#focus(`[data-piece="${CSS.escape(layer.piece.product)}"]`);
  }

  #outfitChanged(words: string): void {
    const context = this.#context;
    context.emit('tryon-outfit', {
      ...tryonSubject(context.host.product, context.run.session.variant),
      pieces: this.pieces(),
    });
    context.announce(words);
    context.panel.requestUpdate();
  }

  #focus(selector: string): void {
    const context = this.#context;
    void context.panel.updateComplete.then(() => context.root.querySelector<HTMLElement>(selector)?.focus());
  }

  /** The piece under way stops (another try-on, the dialog gone); it finishes upstream, as every sent try-on does. */
  stop(): void {
    this.#making?.stop.abort();
    this.#making = undefined;
  }

  /** The outfit's part of the result step: its pieces (the last removable), what went wrong, and the pieces offered. */
  view(): TemplateResult {
    void this.words();
    const making = this.#making;
    const busy = making ? 'true' : 'false';
    const offered = this.#offered();
    const last = this.#layers.at(-1);
    const list = this.#layers.length
      ? html`<h4 id="look-title">${this.t('yourLook')}</h4>
          <ul part="outfit-pieces" class="look-pieces" aria-labelledby="look-title">
            <li>${this.#basePiece.name}</li>
            ${this.#layers.map(
              (layer) => html`<li>
                <span>${layer.piece.name}</span>
                ${
                  layer === last
                    ? html`<button type="button" part="remove-piece-button secondary-button" data-remove-piece
                      aria-disabled=${busy} @click=${() => this.removeLast()}>${this.t('removePiece', { piece: layer.piece.name })}</button>`
                    : nothing
                }
              </li>`,
            )}
          </ul>`
      : nothing;
    return html`<section part="outfit" class="look" aria-labelledby=${offered.length ? 'complete-title' : 'look-title'}>
      ${list}
      ${this.#problem ? html`<p role="alert" part="outfit-error" class="error">${this.#problem}</p>` : nothing}
      ${making ? html`<p part="outfit-progress" class="muted">${this.t('addingPiece', { piece: making.piece.name })}</p>` : nothing}
      ${
        offered.length
          ? html`<h4 id="complete-title">${this.t('completeLook')}</h4>
            <ul part="outfit-offers" class="look-offers">
              ${offered.map((pair) => this.#offer(pair, busy))}
            </ul>`
          : nothing
      }
    </section>`;
  }

  /** One piece offered: its picture (decoration: the name is beside it), name, colour, and "Add". */
  #offer(pair: ProductPair, busy: string): TemplateResult {
    const id = `piece-${pair.product.replace(/[^\w-]/g, '_')}`;
    const colour = this.#colourOf(pair);
    const choose = (event: Event) => {
      this.#chosen.set(pair.product, (event.target as HTMLSelectElement).value);
      this.#context.panel.requestUpdate();
    };
    return html`<li class="look-offer">
      <img src=${pair.image} alt="" width="64" height="80" @error=${(event: Event) => ((event.target as HTMLElement).hidden = true)}>
      <span id=${id} class="look-name">${pair.name}</span>
      ${
        pair.variants.length > 1
          ? html`<select part="piece-colour" aria-label=${this.t('colourOf', { piece: pair.name })} @change=${choose}>
            ${pair.variants.map((v) => html`<option value=${v.id} ?selected=${v.id === colour}>${v.name}</option>`)}
          </select>`
          : nothing
      }
      <button type="button" part="piece-button secondary-button" data-piece=${pair.product} aria-disabled=${busy}
        @click=${() => this.add(pair)}>${this.t('addPiece', { piece: pair.name })}</button>
    </li>`;
  }
}

/** The first look's image once its job succeeded. */
function firstLookOf(answer: ProxyStatus): TryonOutput | undefined {
  const job = answer.preview;
  return job?.status === 'succeeded' ? job.outputs.find((o) => o.type === 'image') : undefined;
}

/**
 * The look's styles, adopted by the dialog when the chunk arrives, after its own (a constructed
 * sheet, or a <style> where the browser has none). Targets are 44 px on a phone's bottom sheet
 * (the dialog's rule for every button, here for the colour too); sides are logical, so right to left
 * needs nothing more; nothing moves.
 */
export function adoptLookStyles(root: ShadowRoot): void {
  adoptStyles(root, [...((root.adoptedStyleSheets as CSSStyleSheet[] | undefined) ?? []), lookStyles]);
}

const lookStyles: CSSResult = css`
  .look h4 {
    margin: 1rem 0 0.5rem;
    font-size: 1rem;
  }
  .look ul {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 0.5rem;
  }
  .look-pieces li,
  .look-offer {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 0.75rem;
  }
  .look-pieces li span,
  .look-name {
    flex: 1;
    min-inline-size: 6rem;
  }
  .look-offer img {
    inline-size: 3rem;
    block-size: auto;
    aspect-ratio: 4 / 5;
    object-fit: cover;
    border-radius: var(--_radius);
  }
  .look select {
    font: inherit;
    color: inherit;
    background: transparent;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.25rem 0.5rem;
  }
  dialog.sheet .look select {
    min-block-size: 2.75rem;
  }
  .look [aria-disabled='true'] {
    cursor: progress;
  }
`;
