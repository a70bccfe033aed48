// What a screen reader meets: each way to give a photo once (the hidden file inputs are out of the
// accessibility tree and the tab order), focus opening on the consent step's heading, and the
// consent text as the dialog's description.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { button, dialogOf, fakeProxy, mount, openAndConsent, panelRoot, reach, until, focused } from './helpers.js';

/** Whether assistive technology is told of this node: not under aria-hidden="true", not hidden. */
function exposed(node: Element): boolean {
  for (let at: Element | null = node; at; at = at.parentElement) {
    if (at.getAttribute('aria-hidden') === 'true' || at.hasAttribute('hidden')) return false;
  }
  return true;
}

/** The accessible name as the tests read it: aria-label, else the text. */
function nameOf(node: Element): string {
  return (node.getAttribute('aria-label') ?? node.textContent ?? '').trim();
}

describe('screen readers', () => {
  beforeEach(() => sessionStorage.clear());

  it('meets "Choose a photo" and "Take a photo" once each: the file inputs are out of the tree and the tab order', async () => {
    const fake = await fakeProxy();
    const el = await mount(fake);
    await openAndConsent(el);
    const root = panelRoot(el);

    const inputs = [...root.querySelectorAll<HTMLInputElement>('input[type="file"]')];
    expect(inputs.map((input) => input.id)).to.deep.equal(['file', 'camera']);
    for (const input of inputs) {
      expect(input.getAttribute('aria-hidden'), `#${input.id} aria-hidden`).to.equal('true');
      expect(input.tabIndex, `#${input.id} tabindex`).to.equal(-1);
      expect(exposed(input), `#${input.id} exposed`).to.equal(false);
    }
    // Each control's name once among what is exposed: the buttons, never an input beside them.
    const controls = [...root.querySelectorAll('button, input, a[href], [role]')].filter(exposed);
    for (const name of ['Choose a photo', 'Take a photo']) {
      expect(
        controls.filter((node) => nameOf(node) === name).map((node) => node.tagName),
        name,
      ).to.deep.equal(['BUTTON']);
    }
    expect(controls.filter((node) => nameOf(node) === 'Your photo')).to.deep.equal([]);

    // Tab and Shift+Tab around the whole step never land on a file input.
    for (const shift of [false, true]) {
      if (shift) await sendKeys({ down: 'Shift' });
      for (let i = 0; i < 8; i++) {
        await sendKeys({ press: 'Tab' });
        expect(focused(el)?.matches('input[type="file"]'), `${shift ? 'Shift+Tab' : 'Tab'} ${i + 1}`).to.equal(false);
      }
      if (shift) await sendKeys({ up: 'Shift' });
    }

    // The buttons still reach the inputs that open the browser's picker.
    const clicked: string[] = [];
    for (const input of inputs)
      input.addEventListener('click', (event) => {
        clicked.push(input.id);
        event.preventDefault();
      });
    button(el, 'Choose a photo').click();
    button(el, 'Take a photo').click();
    expect(clicked).to.deep.equal(['file', 'camera']);
    await expect(el).to.be.accessible();
  });

  it('opens on the consent step\'s heading, so the text is read before "I agree"; Tab then reaches the checkbox', async () => {
    const fake = await fakeProxy({ product: { views: ['front'], video: false, tier: 'draft', name: 'Red saree' } });
    const container = await fixture<HTMLDivElement>(html`<div>
      <tryon-button product="saree-red" endpoint=${fake.endpoint} prefetch="interaction"></tryon-button></div>`);
    const el = container.querySelector('tryon-button')!;
    el.focus();
    await sendKeys({ press: 'Enter' });
    await reach(el, 'consent');
    const heading = await until(
      () => (focused(el)?.matches('h3') ? focused(el) : null),
      'focus on the consent heading',
    );
    expect(heading.textContent?.trim()).to.equal('Your photo, your choice');
    expect(heading.getAttribute('tabindex')).to.equal('-1');
    await sendKeys({ press: 'Tab' });
    expect(focused(el)?.matches('input[type="checkbox"]'), 'Tab after the heading').to.equal(true);
  });

  it('describes the dialog by the consent text while consent is asked, and by nothing after', async () => {
    const fake = await fakeProxy({
      product: {
        views: ['front'],
        video: false,
        tier: 'draft',
        name: 'Red saree',
        retention: { photoSeconds: 3600, resultSeconds: 86400 },
      },
    });
    const el = await mount(fake);
    await el.open();
    await reach(el, 'consent');
    await until(() => panelRoot(el).querySelector('[part="retention"]'), 'the retention sentence');
    const dialog = dialogOf(el);
    const ids = (dialog.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
    expect(ids, 'aria-describedby').to.not.deep.equal([]);
    const described = ids
      .map((id) => panelRoot(el).getElementById(id)?.textContent?.replace(/\s+/g, ' ').trim() ?? `(no #${id})`)
      .join(' ');
    expect(described).to.contain('To show you wearing Red saree, we send your photo to our try-on service.');
    expect(described).to.contain('We keep your photo for 1 hour and your try-on for 1 day.');
    // Only what is agreed to: not the checkbox's own label, nor the heading (already the step's name).
    expect(described).to.not.contain('I agree');
    await expect(el).to.be.accessible();

    panelRoot(el).querySelector<HTMLInputElement>('input[type="checkbox"]')!.click();
    await until(() => !button(el, 'Continue').disabled, 'Continue enabled');
    button(el, 'Continue').click();
    await reach(el, 'photo');
    expect(dialog.hasAttribute('aria-describedby'), 'after consent').to.equal(false);
  });
});
