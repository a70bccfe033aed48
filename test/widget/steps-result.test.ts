// Unit tests of the dialog's later steps (result/result-step.ts, colours/colours-step.ts,
// alternatives/models-step.ts and handoff-step.ts), in the browser: the result (one view or
// tabs, the comparison, video, cart states, the colour offer), "See all colours", "See it on a
// model" and the hand-off's two screens, each rendered on its own for its states.
import { expect } from '@open-wc/testing';
import { Texts } from '../../widget/i18n/words/texts.js';
import { en } from '../../widget/i18n/en.js';
import { ar } from '../../widget/i18n/ar.js';
import { resultStep } from '../../widget/result/result-step.js';
import type { ResultStep } from '../../widget/result/result-step.js';
import { coloursStep } from '../../widget/colours/colours-step.js';
import { modelsStep } from '../../widget/alternatives/models-step.js';
import { desktopHandoffStep, phoneSentStep } from '../../widget/alternatives/handoff-step.js';
import type { DesktopHandoffStep } from '../../widget/alternatives/handoff-step.js';
import type { TryonOutput } from '../../widget/core/events.js';
import { buttonNames, calls, compare, english, shown } from './step-render.js';
import type { CompareController, Shown } from '../../widget/result/compare.js';

const front: TryonOutput = { view: 'front', url: 'data:,front', type: 'image' };
const back: TryonOutput = { view: 'back', url: 'data:,back', type: 'image' };

const result = (over: Partial<ResultStep> = {}): ResultStep => ({
  texts: english,
  productName: 'Red saree',
  outputs: [front],
  views: ['front'],
  selectedView: 'front',
  before: undefined,
  compare,
  offerVideo: false,
  colourOffer: undefined,
  onSelect: () => undefined,
  onDownload: () => undefined,
  onShare: () => undefined,
  onAnotherPhoto: () => undefined,
  onForget: () => undefined,
  onMakeVideo: () => undefined,
  onTryColour: () => undefined,
  ...over,
});

describe('result step', () => {
  it('one view: the image named for the product, no tabs, the heading (named for the product, not "ready") focused, the usual ways on', () => {
    const root = shown(resultStep(result()));
    expect(root.querySelector('[role="tablist"]')).to.equal(null);
    expect(root.querySelector('h3')!.textContent).to.equal('Red saree on you');
    expect(root.textContent, '"ready" is the live region\'s alone').to.not.contain(en.ready);
    expect(root.querySelector('img[part="image"]')!.getAttribute('alt')).to.equal('You wearing Red saree');
    expect(root.querySelector('[data-autofocus]')!.tagName).to.equal('H3');
    expect(buttonNames(root)).to.deep.equal([en.download, en.share, en.anotherPhoto, en.forgetPhoto]);
  });

  it('several views: tabs in order, the chosen one selected and focused, a view not in yet said as pending', () => {
    const seen = calls();
    const root = shown(
      resultStep(
        result({ views: ['front', 'back'], selectedView: 'back', outputs: [front], onSelect: seen.as('select') }),
      ),
    );
    const tabs = [...root.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
    expect(tabs.map((tab) => [tab.textContent, tab.getAttribute('aria-selected'), tab.tabIndex])).to.deep.equal([
      ['Front', 'false', -1],
      ['Back', 'true', 0],
    ]);
    expect(root.querySelector('[data-autofocus]')).to.equal(tabs[1]);
    expect(root.querySelector('[role="tabpanel"]')!.textContent!.trim()).to.equal(en.viewPending);
    tabs[0]!.click();
    expect(seen.list).to.deep.equal(['select']);
  });

  it('arrow keys move between tabs, mirrored right to left; End goes to the last', () => {
    const selected: string[] = [];
    const step = result({
      views: ['front', 'side', 'back'],
      outputs: [front, back],
      onSelect: (view) => selected.push(view),
    });
    const press = (root: HTMLElement, key: string) =>
      root
        .querySelector<HTMLElement>('[role="tab"]')!
        .dispatchEvent(new KeyboardEvent('keydown', { key, cancelable: true }));
    press(shown(resultStep(step), 'ltr'), 'ArrowRight');
    // Right to left, the right arrow goes back: from the first tab it wraps to the last.
    press(shown(resultStep({ ...step, texts: new Texts({}, ar) }), 'rtl'), 'ArrowRight');
    press(shown(resultStep(step), 'ltr'), 'End');
    press(shown(resultStep(step), 'ltr'), 'Enter');
    expect(selected).to.deep.equal(['side', 'back', 'back']);
  });

  it('with the shopper’s photo: the try-on whole, the photo and the slider behind two toggles; with a video: the player; no output: Download and Share disabled', () => {
    const seen = calls();
    const withShown = (state: Shown) =>
      ({
        ...compare,
        shown: state,
        togglePhoto: seen.as('photo'),
        toggleCompare: seen.as('compare'),
      }) as CompareController;
    const step = (state: Shown) =>
      result({
        before: 'data:,me',
        outputs: [front, { view: 'front', url: 'data:,v', type: 'video' }],
        compare: withShown(state),
      });
    const pressed = (root: HTMLElement) =>
      [...root.querySelectorAll('[part~="before-after"] button')].map((b) => [
        b.textContent!.trim(),
        b.getAttribute('aria-pressed'),
      ]);
    const whole = shown(resultStep(step('result')));
    expect(whole.querySelector('[role="slider"]'), 'no divide until asked for').to.equal(null);
    expect(whole.querySelector('img[part="image"]')!.classList.contains('off')).to.equal(false);
    expect(whole.querySelector('img.photo')!.classList.contains('off')).to.equal(true);
    expect(pressed(whole)).to.deep.equal([
      [en.showPhoto, 'false'],
      [en.compare, 'false'],
    ]);
    whole.querySelector<HTMLButtonElement>('[part~="photo-toggle"]')!.click();
    whole.querySelector<HTMLButtonElement>('[part~="compare-toggle"]')!.click();
    expect(seen.list).to.deep.equal(['photo', 'compare']);
    const photo = shown(resultStep(step('photo')));
    expect(photo.querySelector('img[part="image"]')!.classList.contains('off')).to.equal(true);
    expect(photo.querySelector('img.photo:not(.off)')!.getAttribute('alt')).to.equal(en.yourPhoto);
    expect(pressed(photo)).to.deep.equal([
      [en.showPhoto, 'true'],
      [en.compare, 'false'],
    ]);
    const root = shown(resultStep(step('compare')));
    const slider = root.querySelector('[role="slider"]')!;
    expect(slider.getAttribute('aria-label')).to.equal(en.compare);
    expect(slider.getAttribute('aria-valuenow')).to.equal('50');
    expect(pressed(root)).to.deep.equal([
      [en.showPhoto, 'false'],
      [en.compare, 'true'],
    ]);
    expect(root.querySelector('video')!.getAttribute('aria-label')).to.contain('Red saree');
    const empty = shown(resultStep(result({ outputs: [] })));
    const disabled = [...empty.querySelectorAll('button')].filter((b) => b.disabled).map((b) => b.textContent!.trim());
    expect(disabled).to.deep.equal([en.download, en.share]);
  });

  it('a colour offered: its button first, primary and focused; video and colours when offered', () => {
    const root = shown(
      resultStep(result({ colourOffer: 'Try this colour: Ivory', offerVideo: true, offerColours: true })),
    );
    expect(root.querySelector('button.primary')!.textContent).to.equal('Try this colour: Ivory');
    expect(root.querySelector('[data-autofocus]')!.textContent).to.equal('Try this colour: Ivory');
    expect(buttonNames(root)).to.include.members([en.makeVideo, en.seeAllColours]);
  });

  for (const [state, label, busy] of [
    ['idle', en.addToCart, 'false'],
    ['adding', en.addingToCart, 'true'],
    ['added', en.addedToCart, 'true'],
    ['failed', en.addToCart, 'false'],
  ] as const) {
    it(`add to cart, ${state}: "${label}", aria-disabled ${busy}, pressed only when not busy`, () => {
      const seen = calls();
      const cart = { state, primary: true, problem: 'Out of stock.', onAdd: seen.as('add') };
      const root = shown(resultStep(result({ cart })));
      const add = root.querySelector<HTMLButtonElement>('[data-cart]')!;
      expect(add.textContent).to.equal(label);
      expect(add.getAttribute('aria-disabled')).to.equal(busy);
      add.click();
      expect(seen.list).to.deep.equal(busy === 'true' ? [] : ['add']);
      const alert = root.querySelector('[role="alert"]');
      expect(alert?.textContent ?? null).to.equal(state === 'failed' ? 'Out of stock.' : null);
      expect(add.getAttribute('aria-describedby')).to.equal(state === 'failed' ? 'cart-error' : null);
    });
  }
});

describe('"See all colours" step', () => {
  const tiles = [
    { variant: 'a', name: 'Ivory' },
    { variant: 'b', name: 'Gold', output: false as const },
    { variant: 'c', name: 'Green', output: front },
  ];
  const step = (chosen: number, seen = calls()) =>
    coloursStep({
      texts: english,
      productName: 'Red saree',
      tiles,
      chosen: tiles[chosen],
      onChoose: seen.as('choose'),
      onUpgrade: seen.as('upgrade'),
      onBack: seen.as('back'),
      onImageError: seen.as('image-error'),
    });

  it('a row of buttons named with their colour, real thumbnails, the chosen one large with "Make this one in full quality <colour>"', () => {
    const seen = calls();
    const root = shown(step(2, seen));
    const row = [...root.querySelectorAll('[part="colour"]')];
    expect(row.map((tile) => tile.getAttribute('aria-busy'))).to.deep.equal(['true', 'false', 'false']);
    const buttons = row.map((tile) => tile.querySelector('button')!);
    expect(buttons.map((b) => b.querySelector('.colour-label')!.textContent)).to.deep.equal(['Ivory', 'Gold', 'Green']);
    expect(buttons.map((b) => b.getAttribute('aria-pressed'))).to.deep.equal(['false', 'false', 'true']);
    // A thumbnail is the draft itself, silent: the colour's name beside it names the button.
    expect(buttons[2]!.querySelector('img')!.getAttribute('src')).to.equal(front.url);
    expect(buttons[2]!.querySelector('img')!.alt).to.equal('');
    expect(buttons[0]!.textContent).to.contain(en.loading);
    expect(buttons[1]!.textContent).to.contain(en.colourUnavailable);
    const large = root.querySelector<HTMLImageElement>('.frame img[part="image"]')!;
    expect(large.alt).to.equal(en.previewImageAlt.replace('{product}', 'Green'));
    const upgrade = root.querySelector<HTMLButtonElement>('#upgrade')!;
    const name = upgrade
      .getAttribute('aria-labelledby')!
      .split(' ')
      .map((id) => root.querySelector(`#${id}`)!.textContent!.trim())
      .join(' ');
    expect(name).to.equal(`${en.makeFullQuality} Green`);
    buttons[0]!.click();
    upgrade.click();
    root.querySelector<HTMLButtonElement>('[part="actions"] button:last-child')!.click();
    expect(seen.list).to.deep.equal(['choose', 'upgrade', 'back']);
  });

  it('a chosen colour still being made, or without a draft, says so large and offers no full quality', () => {
    for (const [at, words] of [
      [0, en.loading],
      [1, en.colourUnavailable],
    ] as const) {
      const root = shown(step(at));
      expect(root.querySelector('.frame')!.textContent!.trim()).to.equal(words);
      expect(root.querySelector('#chosen-colour')!.textContent).to.equal(tiles[at]!.name);
      expect(root.querySelector('#upgrade')).to.equal(null);
      expect(buttonNames(root).at(-1)).to.equal(en.backToResult);
    }
  });
});

describe('"See it on a model" step', () => {
  it('a button per model named by its name (the picture silent), the first focused; own photo instead', () => {
    const picked: string[] = [];
    const root = shown(
      modelsStep({
        texts: english,
        productName: 'Red saree',
        models: [
          { id: 'asha', name: 'Asha', image: 'data:,a' },
          { id: 'meera', name: 'Meera', image: 'data:,m' },
        ],
        onPick: (id) => picked.push(id),
        onBack: () => picked.push('back'),
      }),
    );
    const models = [...root.querySelectorAll<HTMLButtonElement>('[part="model"]')];
    expect(models.map((m) => m.textContent!.trim())).to.deep.equal(['Asha', 'Meera']);
    expect(models.map((m) => m.querySelector('img')!.alt)).to.deep.equal(['', '']);
    expect(models.map((m) => m.hasAttribute('data-autofocus'))).to.deep.equal([true, false]);
    models[1]!.click();
    root.querySelector<HTMLButtonElement>('[part="actions"] button')!.click();
    expect(picked).to.deep.equal(['meera', 'back']);
    expect(buttonNames(root).at(-1)).to.equal(en.ownPhotoInstead);
  });
});

describe('hand-off steps', () => {
  const desktop = (over: Partial<DesktopHandoffStep>): DesktopHandoffStep => ({
    texts: english,
    qr: 'data:,qr',
    code: 'ABCDE-FGHJK',
    left: '4:59',
    state: 'waiting',
    problem: '',
    onNewCode: () => undefined,
    onBack: () => undefined,
    onConfirm: () => undefined,
    ...over,
  });

  it('desktop, waiting: the QR code, the code left to right, the time left; only Back', () => {
    const root = shown(desktopHandoffStep(desktop({})), 'rtl');
    expect(root.querySelector('[part="qr-code"]')!.getAttribute('alt')).to.equal(en.handoffQrAlt);
    expect(root.querySelector<HTMLElement>('.code')!.dir).to.equal('ltr');
    expect(root.querySelector('.muted')!.textContent).to.contain('4:59');
    expect(buttonNames(root)).to.deep.equal([en.back]);
  });

  it('desktop, starting: loading; expired or failed: no code, the reason as an alert, "New code" first', () => {
    expect(
      shown(desktopHandoffStep(desktop({ state: 'starting', qr: undefined, code: undefined }))).querySelector('.muted')!
        .textContent,
    ).to.equal(en.loading);
    // Expired or ended by wrong numbers: said by the live region (handoff-flow.ts), shown here without a second alert.
    const expired = shown(desktopHandoffStep(desktop({ state: 'expired' })));
    expect(expired.querySelector('[part="qr-code"]')).to.equal(null);
    expect(expired.querySelector('.problem')!.textContent).to.equal(en.handoffExpired);
    expect(expired.querySelector('[role="alert"]')).to.equal(null);
    expect(buttonNames(expired)).to.deep.equal([en.handoffNewCode, en.back]);
    const ended = shown(desktopHandoffStep(desktop({ state: 'ended' })));
    expect(ended.querySelector('.problem')!.textContent).to.equal(en.error_handoff_tries_used);
    expect(ended.querySelector('[part="qr-code"]')).to.equal(null);
    expect(buttonNames(ended)).to.deep.equal([en.handoffNewCode, en.back]);
    const failed = shown(desktopHandoffStep(desktop({ state: 'failed', problem: 'No network.' })));
    expect(failed.querySelector('[role="alert"]')!.textContent).to.equal('No network.');
  });

  it('desktop, confirming: a labelled numeric one-time-code field, its error tied to it, Confirm by Enter', () => {
    const typed: string[] = [];
    const root = shown(desktopHandoffStep(desktop({ state: 'confirming', onConfirm: (t) => typed.push(t) })), 'rtl');
    const input = root.querySelector<HTMLInputElement>('#handoff-number')!;
    expect(root.querySelector('label[for="handoff-number"]')!.textContent).to.equal(en.handoffNumberLabel);
    expect(input.inputMode).to.equal('numeric');
    expect(input.getAttribute('autocomplete')).to.equal('one-time-code');
    expect(input.dir).to.equal('ltr');
    expect(input.hasAttribute('data-autofocus')).to.equal(true);
    expect(input.getAttribute('aria-invalid')).to.equal('false');
    expect(root.querySelector('[part="qr-code"]')).to.equal(null);
    input.value = '123 456';
    root.querySelector('form')!.requestSubmit();
    expect(typed).to.deep.equal(['123 456']);
    const wrong = shown(desktopHandoffStep(desktop({ state: 'confirming', problem: 'Wrong. Tries left: 4.' })));
    const field = wrong.querySelector('#handoff-number')!;
    expect(field.getAttribute('aria-invalid')).to.equal('true');
    expect(wrong.querySelector(`#${field.getAttribute('aria-describedby')}`)!.textContent).to.equal(
      'Wrong. Tries left: 4.',
    );
    expect(wrong.querySelector('[role="alert"]'), 'said by the live region, not a second alert').to.equal(null);
  });

  it('phone: the number to type, large and left to right, whose computer it goes to; or "Not sent" with the reason; Close', () => {
    const sent = shown(
      phoneSentStep({ texts: english, problem: '', number: '123 456', onClose: () => undefined }),
      'rtl',
    );
    expect(sent.querySelector('h3')!.textContent).to.equal(en.handoffTypeNumber);
    const number = sent.querySelector<HTMLElement>('[part="handoff-number"] strong')!;
    expect(number.textContent).to.equal('123 456');
    expect(number.dir).to.equal('ltr');
    expect(sent.textContent).to.contain(en.handoffNumberNote);
    expect(sent.querySelector('[role="alert"]')).to.equal(null);
    const notSent = shown(
      phoneSentStep({ texts: english, problem: en.error_handoff_used, number: '', onClose: () => undefined }),
    );
    expect(notSent.querySelector('h3')!.textContent).to.equal(en.handoffNotSent);
    expect(notSent.querySelector('[role="alert"]')!.textContent).to.equal(en.error_handoff_used);
    expect(buttonNames(notSent)).to.deep.equal([en.close]);
  });
});
