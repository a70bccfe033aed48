import { expect, fixture, html } from '@open-wc/testing';
import type { TryonButton } from '../../widget/tryon-button.js';
import '../../widget/tryon-button.js';
import { until } from './helpers.js';

describe('idle prefetch', () => {
  it('fetches the panel once the page is idle, without opening it', async () => {
    const el = await fixture<TryonButton>(
      html`<tryon-button product="saree-red" endpoint="/fake/idle/tryon"></tryon-button>`,
    );
    await until(() => customElements.get('tryon-panel'), 'the idle prefetch', 10000);
    expect(performance.getEntriesByType('resource').some((e) => e.name.includes('tryon-panel'))).to.equal(true);
    expect(el.status).to.equal('idle');
    expect(el.shadowRoot!.querySelector('tryon-panel')).to.equal(null);
  });
});
