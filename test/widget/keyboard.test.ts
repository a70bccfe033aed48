import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { dialogOf, drawnPhoto, fakeProxy, panelRoot, pickPhoto, reach, until, focused } from './helpers.js';

function name(node: Element | null): string {
  if (!node) return '';
  return (node.getAttribute('aria-label') ?? node.textContent ?? '').trim();
}

describe('keyboard only', () => {
  beforeEach(() => sessionStorage.clear());

  it('runs the whole try-on from the keyboard, and Escape returns focus to the button', async () => {
    const fake = await fakeProxy({
      product: { views: ['front', 'side'], video: false, tier: 'draft', name: 'Red saree' },
      steps: [{ status: 'queued' }, { status: 'succeeded', outputs: ['front', 'side'] }],
    });
    const container = await fixture<HTMLDivElement>(html`<div><input aria-label="Search the shop">
      <tryon-button product="saree-red" endpoint=${fake.endpoint} prefetch="interaction"></tryon-button></div>`);
    const el = container.querySelector('tryon-button')!;
    container.querySelector('input')!.focus();

    await sendKeys({ press: 'Tab' });
    expect(document.activeElement).to.equal(el);
    await sendKeys({ press: 'Enter' });
    await reach(el, 'consent');
    // Focus opens on the step's heading (the text is read first); the checkbox is the next stop.
    await until(() => focused(el)?.matches('h3'), 'focus on the consent heading');
    await sendKeys({ press: 'Tab' });
    await until(() => focused(el)?.matches('input[type="checkbox"]'), 'focus on the consent checkbox');
    await sendKeys({ press: 'Space' });
    await sendKeys({ press: 'Tab' });
    await until(() => name(focused(el)) === 'Continue', 'focus on Continue');
    await sendKeys({ press: 'Enter' });
    await reach(el, 'photo');
    await until(() => name(focused(el)) === 'Choose a photo', 'focus on Choose a photo');

    // The file chooser is the browser's own window; hand it the file as the shopper would.
    await pickPhoto(el, await drawnPhoto(500, 700));
    await until(() => name(focused(el)) === 'Try it on', 'focus on Try it on');
    await sendKeys({ press: 'Enter' });
    await reach(el, 'result');
    await until(() => name(focused(el)) === 'Front', 'focus on the Front tab');
    await sendKeys({ press: 'ArrowRight' });
    expect(name(focused(el))).to.equal('Side');
    await el.updateComplete;
    const selected = panelRoot(el).querySelector('[role="tab"][aria-selected="true"]');
    expect(name(selected)).to.equal('Side');
    expect(panelRoot(el).querySelector<HTMLImageElement>('[role="tabpanel"] img[part="image"]')!.src).to.contain(
      '/files/side.png',
    );

    // The before/after comparison by keyboard: asked for with its toggle, then the divide.
    const toggle = panelRoot(el).querySelector<HTMLButtonElement>('[part~="compare-toggle"]')!;
    expect(toggle.getAttribute('aria-pressed')).to.equal('false');
    toggle.focus();
    await sendKeys({ press: 'Enter' });
    const slider = await until(() => panelRoot(el).querySelector<HTMLElement>('[role="slider"]'), 'the divide');
    expect(toggle.getAttribute('aria-pressed')).to.equal('true');
    expect(slider.getAttribute('aria-label')).to.equal('Before and after');
    slider.focus();
    await sendKeys({ press: 'ArrowRight' });
    await until(() => slider.getAttribute('aria-valuenow') === '55', 'slider at 55');
    await sendKeys({ press: 'Home' });
    await until(() => slider.getAttribute('aria-valuenow') === '0', 'slider at 0');
    await sendKeys({ press: 'End' });
    await until(() => slider.getAttribute('aria-valuenow') === '100', 'slider at 100');
    await sendKeys({ press: 'PageDown' });
    await until(() => slider.getAttribute('aria-valuenow') === '75', 'slider at 75');

    await sendKeys({ press: 'Escape' });
    await reach(el, 'idle');
    expect(dialogOf(el).open).to.equal(false);
    expect(document.activeElement).to.equal(el);
    expect(el.shadowRoot!.activeElement?.getAttribute('part')).to.equal('button');
  });

  it('keeps focus inside the dialog on Tab and Shift+Tab', async () => {
    const fake = await fakeProxy();
    const container = await fixture<HTMLDivElement>(html`<div><a href="#before">Before</a>
      <tryon-button product="saree-red" endpoint=${fake.endpoint} prefetch="interaction" privacy-url="/privacy"></tryon-button>
      <a href="#after">After</a></div>`);
    const el = container.querySelector('tryon-button')!;
    await el.open();
    await reach(el, 'consent');
    const dialog = dialogOf(el);
    const visited = new Set<string>();
    for (let i = 0; i < 8; i++) {
      await sendKeys({ press: 'Tab' });
      const node = focused(el);
      expect(document.activeElement, `Tab ${i + 1}`).to.equal(el);
      expect(node && dialog.contains(node), `Tab ${i + 1} stays in the dialog`).to.equal(true);
      visited.add(name(node) || node!.tagName);
    }
    await sendKeys({ down: 'Shift' });
    for (let i = 0; i < 8; i++) {
      await sendKeys({ press: 'Tab' });
      const node = focused(el);
      expect(node && dialog.contains(node), `Shift+Tab ${i + 1} stays in the dialog`).to.equal(true);
    }
    await sendKeys({ up: 'Shift' });
    // Close, the privacy link and the checkbox take turns; Continue is disabled until consent.
    expect([...visited]).to.include.members(['Close', 'How we handle your photo', 'INPUT']);
  });
});
