// Unit tests of the dialog's steps (panel/consent-step.ts, photo/photo-step.ts,
// panel/progress-step.ts, panel/error-step.ts), in the browser: each step's template rendered
// on its own for each of its states, with English texts (and Arabic where the words matter), and
// its buttons calling back what the panel gave it. The consent, photo, progress and error steps;
// the result, colours, models and hand-off steps are in steps-result.test.ts.
import { expect } from '@open-wc/testing';
import { nothing, html } from 'lit';
import type { TemplateResult } from 'lit';
import { Texts } from '../../widget/i18n/words/texts.js';
import { en } from '../../widget/i18n/en.js';
import { ar } from '../../widget/i18n/ar.js';
import { consentStep, consentText, CONSENT_TEXT_ID } from '../../widget/panel/consent-step.js';
import type { ConsentStep } from '../../widget/panel/consent-step.js';
import { photoProblem, photoStep } from '../../widget/photo/photo-step.js';
import type { PhotoStep } from '../../widget/photo/photo-step.js';
import { progressStep } from '../../widget/panel/progress-step.js';
import type { ProgressStep } from '../../widget/panel/progress-step.js';
import { errorStep } from '../../widget/panel/error-step.js';
import { MIN_SHORT_SIDE, PhotoError } from '../../widget/photo/photo.js';
import { buttonNames, calls, compare, english, shown } from './step-render.js';

describe('consent step', () => {
  const step = (over: Partial<ConsentStep> = {}): ConsentStep => ({
    texts: english,
    productName: 'Red saree',
    privacyUrl: 'https://shop.example/privacy',
    retention: { photoSeconds: 3600, resultSeconds: 86_400 },
    checked: false,
    onCheck: () => undefined,
    onContinue: () => undefined,
    ...over,
  });

  it('unchecked: "Continue" is disabled; the text names the product, the retention and the privacy page', () => {
    const root = shown(consentStep(step()));
    expect(root.querySelector('button.primary')!.hasAttribute('disabled')).to.equal(true);
    const text = root.querySelector(`#${CONSENT_TEXT_ID}`)!.textContent!;
    expect(text).to.contain('Red saree');
    expect(text).to.contain('1 hour');
    expect(text).to.contain('1 day');
    expect(root.querySelector<HTMLAnchorElement>('a')!.href).to.equal('https://shop.example/privacy');
    expect(root.querySelector('[data-autofocus]')!.tagName, 'focus opens on the heading').to.equal('H3');
  });

  it('checked: "Continue" is enabled and calls onContinue; the checkbox calls onCheck', () => {
    const seen = calls();
    const root = shown(
      consentStep(step({ checked: true, onContinue: seen.as('continue'), onCheck: seen.as('check') })),
    );
    const go = root.querySelector<HTMLButtonElement>('button.primary')!;
    expect(go.disabled).to.equal(false);
    go.click();
    root.querySelector<HTMLInputElement>('input[type="checkbox"]')!.click();
    expect(seen.list).to.deep.equal(['continue', 'check']);
  });

  it('no retention sentence before the product answered, and no link to a javascript: privacy page', () => {
    const root = shown(consentStep(step({ retention: undefined, privacyUrl: 'javascript:alert(1)' })));
    expect(root.querySelector('[part="retention"]')).to.equal(null);
    expect(root.querySelector('a')).to.equal(null);
    expect(consentText(step({ privacyUrl: '' })).privacy).to.equal('');
  });

  it('in Arabic: the words are the dictionary’s', () => {
    const words = consentText(step({ texts: new Texts({}, ar) }));
    expect(words.title).to.equal(ar.consentTitle);
    expect(words.checkbox).to.equal(ar.consentCheckbox);
  });
});

describe('photo step', () => {
  const step = (over: Partial<PhotoStep> = {}): PhotoStep => ({
    texts: english,
    thumbnail: undefined,
    preparing: false,
    dragging: false,
    problem: '',
    hasLastPhoto: false,
    canForget: false,
    onForget: () => undefined,
    onDragOver: () => undefined,
    onDragLeave: () => undefined,
    onDrop: () => undefined,
    onSubmit: () => undefined,
    onPick: () => undefined,
    onUseLastPhoto: () => undefined,
    onFile: () => undefined,
    ...over,
  });

  it('no photo yet: "Choose a photo" is the primary way, no "Try it on", the drop hint', () => {
    const root = shown(photoStep(step()));
    expect(buttonNames(root)).to.deep.equal([en.choosePhoto, en.takePhoto]);
    expect(root.querySelector('button.primary')!.textContent!.trim()).to.equal(en.choosePhoto);
    expect(root.querySelector('[part="dropzone"]')!.textContent!.trim()).to.equal(en.dropHint);
  });

  it('preparing: says so; dragging: the drop zone shows it', () => {
    const root = shown(photoStep(step({ preparing: true, dragging: true })));
    expect(root.querySelector('[part="dropzone"]')!.textContent!.trim()).to.equal(en.preparing);
    expect(root.querySelector('[part="dropzone"]')!.classList.contains('over')).to.equal(true);
  });

  it('a photo ready: its thumbnail, "Try it on" first and primary, then the last photo and "Forget my photo" when offered', () => {
    const seen = calls();
    const root = shown(
      photoStep(
        step({
          thumbnail: 'data:,',
          hasLastPhoto: true,
          canForget: true,
          onSubmit: seen.as('submit'),
          onPick: seen.as('pick'),
        }),
      ),
    );
    expect(root.querySelector('img[part="preview"]')!.getAttribute('alt')).to.equal(en.previewAlt);
    expect(buttonNames(root)).to.deep.equal([en.submit, en.choosePhoto, en.takePhoto, en.useLastPhoto, en.forgetPhoto]);
    expect(root.querySelector('button.primary')!.textContent!.trim()).to.equal(en.submit);
    root.querySelector<HTMLButtonElement>('button.primary')!.click();
    expect(seen.list).to.deep.equal(['submit']);
  });

  it('a photo the check will not send: no "Try it on"; a refused file is said as an alert', () => {
    const root = shown(
      photoStep(step({ thumbnail: 'data:,', problem: 'Too dark', check: { view: nothing, allowsSend: false } })),
    );
    expect(buttonNames(root)).to.not.include(en.submit);
    expect(root.querySelector('[role="alert"]')!.textContent).to.equal('Too dark');
  });

  it('on a phone in a hand-off: its own title, "Send to my computer" (disabled while sending), no last photo', () => {
    const root = shown(photoStep(step({ thumbnail: 'data:,', hasLastPhoto: true, phone: { sending: true } })));
    // Its title says, before anything is sent, whose computer the photo goes to.
    expect(root.querySelector('h3')!.textContent).to.equal('Send a photo to the computer that showed the code');
    const send = root.querySelector<HTMLButtonElement>('button.primary')!;
    expect(send.textContent!.trim()).to.equal(en.sendToComputer);
    expect(send.disabled).to.equal(true);
    expect(buttonNames(root)).to.not.include(en.useLastPhoto);
  });

  it("photoProblem: each refusal in the shopper's words, with its sizes", () => {
    expect(photoProblem(english, new PhotoError('not_image', 'not an image'))).to.equal(en.photoNotImage);
    const small = photoProblem(english, new PhotoError('too_small', 'small', { width: 200, height: 150 }));
    expect(small).to.contain('200');
    expect(small).to.contain(String(MIN_SHORT_SIDE));
    expect(photoProblem(english, new Error('other'))).to.equal(en.photoUnreadable);
  });
});

describe('progress step', () => {
  const step = (over: Partial<ProgressStep> = {}): ProgressStep => ({
    texts: english,
    productName: 'Red saree',
    uploading: false,
    percent: 0,
    elapsedSeconds: undefined,
    expectedSeconds: 20,
    notAnswering: false,
    onCancel: () => undefined,
    ...over,
  });

  it('uploading: a bar at its percent, no spinner', () => {
    const root = shown(progressStep(step({ uploading: true, percent: 40 })));
    expect(root.querySelector('progress')!.value).to.equal(40);
    expect(root.querySelector('.spinner')).to.equal(null);
  });

  it('rendering: a spinner, and the time so far against the time expected once submitted', () => {
    expect(shown(progressStep(step())).querySelector('.muted')).to.equal(null);
    const root = shown(progressStep(step({ elapsedSeconds: 5 })));
    expect(root.querySelector('.spinner')).to.not.equal(null);
    expect(root.querySelector('.muted')!.textContent).to.equal('5 seconds so far; usually about 20 seconds');
  });

  it('not answering: no spinner and no clock pretend it works; "Cancel" calls onCancel', () => {
    const seen = calls();
    const root = shown(progressStep(step({ elapsedSeconds: 5, notAnswering: true, onCancel: seen.as('cancel') })));
    expect(root.querySelector('.spinner')).to.equal(null);
    expect(root.querySelector('.muted')).to.equal(null);
    root.querySelector('button')!.click();
    expect(seen.list).to.deep.equal(['cancel']);
  });

  it('with a first look: the draft marked as such, with its own alt', () => {
    const firstLook = {
      output: { view: 'front', url: 'data:,', type: 'image' as const },
      view: { texts: english, productName: 'Red saree', before: undefined, compare },
      onLoad: () => undefined,
    };
    const root = shown(progressStep(step({ firstLook, elapsedSeconds: 3 })));
    expect(root.querySelector('[part="first-look-badge"]')!.textContent).to.equal(en.previewBadge);
    expect(root.querySelector('img[part="image"]')!.getAttribute('alt')).to.contain('Red saree');
  });
});

describe('error step', () => {
  const step = (action: string | undefined, kept?: TemplateResult) => {
    const seen = calls();
    const template = errorStep({
      texts: english,
      message: 'The service is busy.',
      action,
      onRetry: seen.as('retry'),
      onClose: seen.as('close'),
      kept,
    });
    return { root: shown(template), seen };
  };

  it('the message as an alert, its way on first (focused), then Close', () => {
    const { root, seen } = step(en.tryAgain);
    expect(root.querySelector('[role="alert"]')!.textContent!.trim()).to.equal('The service is busy.');
    expect(buttonNames(root)).to.deep.equal([en.tryAgain, en.close]);
    expect(root.querySelector('[data-autofocus]')!.textContent!.trim()).to.equal(en.tryAgain);
    for (const button of root.querySelectorAll('button')) button.click();
    expect(seen.list).to.deep.equal(['retry', 'close']);
  });

  it('nothing can succeed today: Close alone, primary; a kept first look stays shown', () => {
    const { root } = step(undefined, html`<p id="kept">first look</p>`);
    expect(buttonNames(root)).to.deep.equal([en.close]);
    expect(root.querySelector('button.primary')!.textContent!.trim()).to.equal(en.close);
    expect(root.querySelector('#kept')).to.not.equal(null);
  });

  it('without a message: the generic words', () => {
    const root = shown(
      errorStep({ texts: english, message: undefined, action: undefined, onRetry() {}, onClose() {} }),
    );
    expect(root.querySelector('[role="alert"]')!.textContent!.trim()).to.equal(en.error_generic);
  });
});
