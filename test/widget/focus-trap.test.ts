// Unit tests of widget/panel/focus-trap.ts, in the browser, on a small Lit host of its own: Tab on the last
// control wraps to the first and Shift+Tab on the first to the last; focus outside the container
// comes back into it; disabled, hidden and out-of-order controls are skipped; other keys and other
// places are left to the browser; and a disconnected host stops listening.
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import { FocusTrapController } from '../../widget/panel/focus-trap.js';

class TrapHost extends LitElement {
  readonly trap = new FocusTrapController(this, () => this.renderRoot.querySelector<HTMLElement>('#box'));

  override render() {
    return html`<button id="before">Outside</button>
      <div id="box">
        <button id="first">First</button>
        <input id="field" aria-label="Field" />
        <input id="skipped" aria-label="Not in the order" tabindex="-1" />
        <a id="link" href="#nowhere">Link</a>
        <button id="off" disabled>Disabled</button>
        <button id="hidden" style="display: none">Hidden</button>
      </div>`;
  }
}
customElements.define('focus-trap-host', TrapHost);

/** Presses Tab (or Shift+Tab) where focus is, as the browser would dispatch it; true when the trap took it. */
function tab(host: TrapHost, shift = false, key = 'Tab'): boolean {
  const target = host.shadowRoot!.activeElement ?? host;
  const event = new KeyboardEvent('keydown', { key, shiftKey: shift, bubbles: true, composed: true, cancelable: true });
  target.dispatchEvent(event);
  return event.defaultPrevented;
}

const focusedId = (host: TrapHost) => host.shadowRoot!.activeElement?.id;

async function trapped(): Promise<TrapHost> {
  const host = await fixture<TrapHost>(html`<focus-trap-host></focus-trap-host>`);
  await host.updateComplete;
  return host;
}

const $ = (host: TrapHost, id: string) => host.shadowRoot!.getElementById(id)!;

describe('FocusTrapController', () => {
  it('Tab on the last control wraps to the first; Shift+Tab on the first wraps to the last', async () => {
    const host = await trapped();
    // The last control the trap counts is the link: the disabled and the hidden buttons are not in the order.
    $(host, 'link').focus();
    expect(tab(host)).to.equal(true);
    expect(focusedId(host)).to.equal('first');
    expect(tab(host, true)).to.equal(true);
    expect(focusedId(host)).to.equal('link');
  });

  it('in the middle, Tab and Shift+Tab are left to the browser', async () => {
    const host = await trapped();
    $(host, 'field').focus();
    expect(tab(host)).to.equal(false);
    expect(tab(host, true)).to.equal(false);
    expect(focusedId(host)).to.equal('field');
  });

  it('focus outside the host comes back in: Tab to the first control, Shift+Tab to the last', async () => {
    const host = await trapped();
    (document.activeElement as HTMLElement | null)?.blur();
    expect(host.shadowRoot!.activeElement).to.equal(null);
    expect(tab(host)).to.equal(true);
    expect(focusedId(host)).to.equal('first');
    (document.activeElement as HTMLElement | null)?.blur();
    expect(tab(host, true)).to.equal(true);
    expect(focusedId(host)).to.equal('link');
  });

  it('other keys pass through', async () => {
    const host = await trapped();
    $(host, 'link').focus();
    expect(tab(host, false, 'Enter')).to.equal(false);
    expect(tab(host, false, 'ArrowDown')).to.equal(false);
    expect(focusedId(host)).to.equal('link');
  });

  it('a link that loses its href leaves the order: the control before it becomes the last', async () => {
    const host = await trapped();
    ($(host, 'link') as HTMLAnchorElement).removeAttribute('href');
    $(host, 'field').focus();
    expect(tab(host)).to.equal(true);
    expect(focusedId(host)).to.equal('first');
  });

  it('stops listening once the host is disconnected, and listens again when it is back', async () => {
    const host = await trapped();
    const parent = host.parentElement!;
    host.remove();
    parent.append(host);
    await host.updateComplete;
    $(host, 'link').focus();
    expect(tab(host), 'one listener again, not none').to.equal(true);
    expect(focusedId(host)).to.equal('first');

    host.remove();
    const event = new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, composed: true, cancelable: true });
    $(host, 'link').dispatchEvent(event);
    expect(event.defaultPrevented).to.equal(false);
  });
});
