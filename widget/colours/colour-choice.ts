// The colours a result offers, as a controller created once with the panel: "Try this colour" when
// the page chose another variant than the result's (said once per result and variant in the live
// region), and "See all colours", the other colours' drafts made with the result's photo (drafts.ts)
// as a row of thumbnails, one shown large, from which one is made in full ("Make this one in full
// quality").
import type { ReactiveController } from 'lit';
import { ColourDrafts, coloursToDraft } from './drafts.js';
import type { ColourTile } from './drafts.js';
import type { SessionState } from '../run/session.js';
import type { TryonRun } from '../run/tryon-run.js';
import type { PhotoChoice } from '../photo/photo-choice.js';
import type { Texts } from '../i18n/words/texts.js';
import type { DialogContext } from '../core/dialog-context.js';

/** What the colours read of the dialog's context. */
export interface ColourChoiceContext extends DialogContext {
  readonly run: TryonRun;
  /** The photo chosen on this page, uploaded again for a colour when its handle has expired. */
  readonly photo: Pick<PhotoChoice, 'prepared'>;
  /** The result on screen: a new try-on's first view is shown, not the view chosen for the last one. */
  readonly result: { showFirstView(): void };
  readonly dialogOpen: boolean;
}

export class ColourChoice implements ReactiveController {
  // Once every colour has its answer, the live region says how many are in.
  readonly drafts: ColourDrafts = new ColourDrafts(() => {
    const { open, settled, tiles } = this.drafts;
    if (open && settled) {
      const ready = tiles.filter((t) => t.output).length;
      this.#context.announce(this.#context.texts.t('coloursDone', { ready, count: tiles.length }));
    }
    this.#context.panel.requestUpdate();
  });
  /** The result and the chosen variant "Try this colour" was last announced for. */
  #announcedOffer = '';
  readonly #context: ColourChoiceContext;

  constructor(context: ColourChoiceContext) {
    this.#context = context;
    context.panel.addController(this);
  }

  get #run(): TryonRun {
    return this.#context.run;
  }

  /** Once per result and variant, before each render, the live region says a new colour can be tried with the same photo. */
  hostUpdate(): void {
    const texts = this.#context.texts;
    const offer = this.offer(texts);
    const key = offer ? `${this.#run.session.requestId}|${this.#run.chosenVariant ?? ''}` : '';
    const open = this.#context.dialogOpen;
    if (offer && key !== this.#announcedOffer && open)
      this.#context.announce(texts.t('colourChanged', { action: offer }));
    if (open || !offer) this.#announcedOffer = key;
  }

  hostDisconnected(): void {
    // The colour drafts' watches stop with the panel (each draft is charged and finishes upstream).
    this.drafts.reset();
  }

  /** Another photo (or none): the colour drafts made with the old one are not this shopper's now. */
  sessionChanged(after: SessionState): void {
    if (after.photo?.handle !== this.drafts.photo && this.drafts.photo) this.drafts.reset();
  }

  /** "Try this colour", named after the chosen variant when the proxy lists its name; undefined when not offered. */
  offer(texts: Texts): string | undefined {
    if (!this.#run.offersChosenVariant()) return undefined;
    const chosen = this.#run.chosenVariant;
    const name = chosen ? this.#run.product?.variants?.find((v) => v.id === chosen)?.name : undefined;
    return name ? texts.t('tryColourNamed', { variant: name }) : texts.t('tryColour');
  }

  /** Whether the result offers "See all colours" (an expired photo handle is said on each colour, as the proxy refuses it). */
  offersAll(): boolean {
    const { complete, output, photo, variant } = this.#run.session;
    return complete && output === 'image' && Boolean(photo) && coloursToDraft(this.#run.product, variant).length > 0;
  }

  readonly tryChosen = () => {
    this.#context.result.showFirstView();
    this.#run.tryChosenVariant(this.#context.photo.prepared?.blob);
  };

  /** "See all colours": the other colours' drafts with this result's photo, in a row. */
  readonly seeAll = () => {
    const photo = this.#run.session.photo;
    if (!photo) return;
    const colours = coloursToDraft(this.#run.product, this.#run.session.variant);
    this.drafts.show(photo.handle, colours, (variant, signal) => this.#run.colourDraft(variant, signal));
    this.#context.focusStep();
  };

  /** A colour's thumbnail chosen: its draft is shown large; nothing is said (the button's pressed state says it). */
  readonly choose = (tile: ColourTile) => {
    this.drafts.choose(tile.variant);
    this.#context.panel.requestUpdate();
  };

  /** "Make this one in full quality": that colour at the product's tier; its draft shows meanwhile. */
  readonly upgrade = (tile: ColourTile) => {
    if (!tile.output) return;
    this.drafts.open = false;
    this.#context.result.showFirstView();
    this.#run.upgradeColour(tile.variant, tile.output);
  };

  readonly back = () => {
    this.drafts.open = false;
    this.#context.focusStep();
    this.#context.announce('');
  };
}
