import { expect, fixture, html } from '@open-wc/testing';
import { define, TryonButton } from '../../widget/tryon-button.js';
import { fakeProxy, reach, until } from './helpers.js';

// The proxy client and its parts (api/) come with the panel, never up front; of i18n/, only the
// button's own language/ (which language it speaks, English's label) comes up front.
const panelModules = /\/widget\/(panel\/|run\/session|api\/|photo\/|i18n\/(?!language\/))/;
const requested = () =>
  performance
    .getEntriesByType('resource')
    .map((e) => e.name)
    .filter((name) => panelModules.test(name));

describe('lazy loading', () => {
  it('loads only the button up front; the panel on hover, before the click', async () => {
    const fake = await fakeProxy();
    const el = await fixture<TryonButton>(
      html`<tryon-button product="saree-red" endpoint=${fake.endpoint} prefetch="interaction"></tryon-button>`,
    );
    if (document.readyState !== 'complete')
      await new Promise((resolve) => addEventListener('load', resolve, { once: true }));
    // An idle moment after load, where the widget would prefetch if it were going to. WebKit has no
    // requestIdleCallback: there the next frame after load stands in.
    await new Promise((resolve) =>
      'requestIdleCallback' in window ? requestIdleCallback(resolve) : requestAnimationFrame(resolve),
    );
    expect(requested()).to.deep.equal([]);
    expect(customElements.get('tryon-panel')).to.equal(undefined);
    expect(el.shadowRoot!.querySelector('tryon-panel')).to.equal(null);

    el.shadowRoot!.querySelector('button')!.dispatchEvent(new PointerEvent('pointerenter'));
    await until(() => customElements.get('tryon-panel'), 'the panel module');
    expect(requested().some((name) => name.includes('tryon-panel'))).to.equal(true);
    // Prefetching does not open anything.
    expect(el.status).to.equal('idle');

    el.shadowRoot!.querySelector('button')!.click();
    await reach(el, 'consent');
  });

  it('registering twice is harmless', async () => {
    expect(() => define()).to.not.throw();
    expect(() => define()).to.not.throw();
    expect(customElements.get('tryon-button')).to.equal(TryonButton);
    define('tryon-button-second');
    expect(new (customElements.get('tryon-button-second')!)()).to.be.instanceOf(TryonButton);
  });
});
