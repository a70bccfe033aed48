// "Forget my photo", the retention the consent step states, and the consent text's version.
import { expect } from '@open-wc/testing';
import type { TryonButton } from '../../widget/tryon-button.js';
import { en } from '../../widget/i18n/en.js';
import { consentVersion, consentWords } from '../../widget/run/consent-version.js';
import {
  button,
  control,
  drawnPhoto,
  fakeProxy,
  mount,
  openAndConsent,
  panelRoot,
  pickPhoto,
  reach,
  statusText,
  until,
} from './helpers.js';
import type { Fake } from './helpers.js';

const storedKeys = () =>
  Array.from({ length: sessionStorage.length }, (_, i) => sessionStorage.key(i) ?? '').filter((k) =>
    k.startsWith('tryon:'),
  );

async function tryOnce(el: TryonButton): Promise<void> {
  await pickPhoto(el, await drawnPhoto(500, 700));
  button(el, 'Try it on').click();
  await reach(el, 'result');
  await until(() => statusText(el) === en.ready, 'the ready text');
}

const deletes = async (fake: Fake) => (await fake.log()).filter((r) => r.method === 'DELETE').map((r) => r.path);

describe('forget my photo', () => {
  beforeEach(() => sessionStorage.clear());

  it('from the result: revokes the photo at the proxy, clears what the tab kept, and says so', async () => {
    const fake = await fakeProxy();
    const el = await mount(fake);
    await openAndConsent(el);
    expect(control(el, en.forgetPhoto), 'nothing to forget yet').to.equal(undefined);
    await tryOnce(el);
    expect(storedKeys()).to.not.deep.equal([]);
    const photo = (await fake.log()).find((r) => r.path === '/tryons')!.body!.photo as string;

    button(el, en.forgetPhoto).click();
    await reach(el, 'photo');
    await until(() => statusText(el) === en.forgotten, 'the forgotten announcement');
    expect(await deletes(fake)).to.deep.equal([`/photos/${photo}`]);
    expect(storedKeys()).to.deep.equal([]);
    expect(control(el, en.useLastPhoto)).to.equal(undefined);
    expect(control(el, en.forgetPhoto), 'nothing left to forget').to.equal(undefined);
    expect(panelRoot(el).querySelector('img')).to.equal(null);
    // Focus moved to the photo step's first control, inside the dialog.
    expect(panelRoot(el).activeElement?.textContent?.trim()).to.equal(en.choosePhoto);
    await expect(el).to.be.accessible();

    // Its try-on is gone at the proxy too.
    const tryon = (await fake.log()).find((r) => r.path.startsWith('/tryons/'))!.path.split('/')[2];
    expect((await fetch(`${fake.endpoint}/tryons/${tryon}`)).status).to.equal(404);
  });

  it('from the photo step: forgets the last photo this tab kept', async () => {
    const fake = await fakeProxy();
    const el = await mount(fake);
    await openAndConsent(el);
    await tryOnce(el);
    button(el, en.anotherPhoto).click();
    await reach(el, 'photo');
    expect(button(el, en.useLastPhoto)).to.exist;

    button(el, en.forgetPhoto).click();
    await until(() => statusText(el) === en.forgotten, 'the forgotten announcement');
    expect((await deletes(fake)).length).to.equal(1);
    expect(control(el, en.useLastPhoto)).to.equal(undefined);
    expect(storedKeys()).to.deep.equal([]);
  });

  it('when the proxy cannot be reached: clears the tab anyway, says so, and forgets on the next try', async () => {
    const fake = await fakeProxy({ forgetErrors: [{ status: 503, code: 'upstream_unavailable' }] });
    const el = await mount(fake);
    await openAndConsent(el);
    await tryOnce(el);
    button(el, en.forgetPhoto).click();
    await reach(el, 'photo');
    await until(() => statusText(el) === en.forgetFailed, 'the failure announcement');
    expect(storedKeys()).to.deep.equal([]);
    // The control stays, so the shopper can ask again.
    button(el, en.forgetPhoto).click();
    await until(() => statusText(el) === en.forgotten, 'the forgotten announcement');
    const [first, second] = await deletes(fake);
    expect(second).to.equal(first);
    expect(control(el, en.forgetPhoto)).to.equal(undefined);
  });
});

describe('the consent record', () => {
  beforeEach(() => sessionStorage.clear());

  it('states the retention the proxy answered, in plain words, naming the forget control', async () => {
    const fake = await fakeProxy({
      product: {
        product: 'saree-red',
        views: ['front'],
        video: false,
        tier: 'standard',
        name: 'Red Banarasi saree',
        retention: { photoSeconds: 1800, resultSeconds: 2 * 86_400 },
      },
    });
    const el = await mount(fake);
    await el.open();
    await reach(el, 'consent');
    const retention = await until(() => panelRoot(el).querySelector('[part="retention"]'), 'the retention sentence');
    expect(retention.textContent).to.equal(
      'We keep your photo for 30 minutes and your try-on for 2 days. You can delete both sooner with “Forget my photo”.',
    );
  });

  it('sends the version of the exact words shown and their language with the try-on', async () => {
    const fake = await fakeProxy();
    const el = await mount(fake, { 'privacy-url': 'https://shop.example/privacy' });
    await el.open();
    await reach(el, 'consent');
    await until(() => panelRoot(el).querySelector('[part="retention"]'), 'the retention sentence');
    const consent = panelRoot(el).querySelector('[part="consent"]')!;
    // What the shopper reads, in order: the heading, the paragraphs, the checkbox's label.
    const shown = [...consent.querySelectorAll('h3, p, label')].map((node) => node.textContent ?? '');
    const expected = await consentVersion(consentWords(shown));
    await openAndConsent(el);
    await tryOnce(el);
    const body = (await fake.log()).find((r) => r.path === '/tryons')!.body!;
    expect(body.consentVersion).to.equal(expected);
    expect(body.consentLanguage).to.equal('en');
    expect(body.consent).to.equal(true);
  });

  it('a different text, here in Arabic, is a different version', async () => {
    const english = await fakeProxy();
    const arabic = await fakeProxy();
    const versions: unknown[] = [];
    for (const [fake, lang] of [
      [english, 'en'],
      [arabic, 'ar'],
    ] as const) {
      const el = await mount(fake, { lang });
      await el.open();
      await reach(el, 'consent');
      await until(() => panelRoot(el).querySelector('[part="retention"]'), 'the retention sentence');
      panelRoot(el).querySelector<HTMLInputElement>('input[type="checkbox"]')!.click();
      await reach(el, 'consent');
      const next = panelRoot(el).querySelector<HTMLButtonElement>('button[part="primary-button"]')!;
      await until(() => !next.disabled, 'continue enabled');
      next.click();
      await reach(el, 'photo');
      await pickPhoto(el, await drawnPhoto(500, 700));
      panelRoot(el).querySelector<HTMLButtonElement>('button[part="primary-button"]')!.click();
      await until(async () => (await fake.log()).some((r) => r.path === '/tryons'), 'the try-on');
      const body = (await fake.log()).find((r) => r.path === '/tryons')!.body!;
      expect(body.consentLanguage).to.equal(lang);
      versions.push(body.consentVersion);
      el.close();
    }
    expect(versions[0]).to.match(/^[0-9a-f]{16}$/);
    expect(versions[1]).to.match(/^[0-9a-f]{16}$/);
    expect(versions[0]).to.not.equal(versions[1]);
  });
});
