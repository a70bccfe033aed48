// "See all colours": the product's other colours as draft previews with the same photo (no new
// upload), one request each up to the product's cap, in a grid a keyboard and a screen reader can
// use, right to left and on a phone; "Make this one in full quality" makes that colour a normal
// try-on without a first look of its own, its draft shown while it is made.
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { TryonButton } from '../../widget/tryon-button.js';
import { en } from '../../widget/i18n/en.js';
import { ar } from '../../widget/i18n/ar.js';
import {
  button,
  drawnPhoto,
  fakeProxy,
  mount,
  openAndConsent,
  panelRoot,
  pickPhoto,
  reach,
  recordEvents,
  statusText,
  until,
  focused,
  tryOnUntil,
} from './helpers.js';
import type { Fake, FakeRequest, Scenario } from './helpers.js';
import { viewport } from './media.js';

const lehenga = {
  views: ['front'],
  video: false,
  tier: 'standard',
  name: 'Bridal lehenga',
  colourPreviews: 3,
  variants: [
    { id: 'ivory', name: 'Ivory' },
    { id: 'sindoor-red', name: 'Sindoor red' },
    { id: 'emerald', name: 'Emerald' },
  ],
};

const tryons = async (fake: Fake): Promise<FakeRequest[]> =>
  (await fake.log()).filter((r) => r.method === 'POST' && r.path === '/tryons');
const uploads = async (fake: Fake): Promise<number> => (await fake.log()).filter((r) => r.path === '/photos').length;
const grid = (el: TryonButton) => panelRoot(el).querySelector<HTMLElement>('[part="colours"]');
const tiles = (el: TryonButton) => [...panelRoot(el).querySelectorAll<HTMLElement>('[part="colour"]')];
/** The accessible name of a colour's button: its own text, then the colour's heading (aria-labelledby). */
const nameOf = (button: Element | null | undefined): string => {
  const root = button?.getRootNode() as ShadowRoot | undefined;
  return (button?.getAttribute('aria-labelledby') ?? '')
    .split(' ')
    .map((id) => root?.getElementById(id)?.textContent?.trim())
    .join(' ');
};
const upgrade = (el: TryonButton, name: string) =>
  [...panelRoot(el).querySelectorAll<HTMLButtonElement>('button[aria-labelledby]')].find(
    (b) => nameOf(b) === `${en.makeFullQuality} ${name}`,
  );

async function result(
  scenario: Scenario,
  attributes: Record<string, string> = {},
  releaseFirst = false,
): Promise<{ fake: Fake; el: TryonButton }> {
  const fake = await fakeProxy(scenario);
  // Lets the first try-on pass its hold, so a later one waits at its own.
  if (releaseFirst) await fake.release();
  const el = await mount(fake, attributes);
  await tryOnUntil(el, 'result', { width: 400, height: 500 });
  await until(() => panelRoot(el).querySelector('img[part="image"]'), 'the result image');
  return { fake, el };
}

async function allIn(el: TryonButton, count: number): Promise<void> {
  await until(
    () => tiles(el).length === count && tiles(el).every((t) => t.getAttribute('aria-busy') === 'false'),
    'every colour answered',
  );
  const images = [...grid(el)!.querySelectorAll<HTMLImageElement>('img')];
  await until(() => images.every((i) => i.complete && i.naturalWidth > 0), 'every draft decoded');
}

describe('see all colours', () => {
  beforeEach(() => sessionStorage.clear());

  it('is not offered when the product has colour previews off, or no variants', async () => {
    const off = await result({ product: { ...lehenga, colourPreviews: 0 } }, { variant: 'ivory' });
    expect(panelRoot(off.el).textContent).to.not.contain(en.seeAllColours);
    const { variants: _unused, ...plain } = lehenga;
    const none = await result({ product: plain });
    expect(panelRoot(none.el).textContent).to.not.contain(en.seeAllColours);
  });

  it('makes one draft per other colour with the same photo and no new upload, in a grid said when done', async () => {
    const { fake, el } = await result({ product: lehenga }, { variant: 'ivory' });
    const [main] = await tryons(fake);
    button(el, en.seeAllColours).click();
    await until(() => grid(el), 'the colours grid');
    expect(panelRoot(el).querySelector('h3')!.textContent).to.equal(
      en.coloursTitle.replace('{product}', 'Bridal lehenga'),
    );
    await until(() => focused(el)?.id === 'step-title', "focus on the grid's heading");
    await allIn(el, 2);

    const drafts = (await tryons(fake)).slice(1);
    expect(drafts.map((r) => r.body!['variant']).sort()).to.deep.equal(['emerald', 'sindoor-red']);
    for (const draft of drafts) {
      expect(draft.body!['quality']).to.equal('preview');
      expect(draft.body!['photo']).to.equal(main!.body!['photo']);
      expect(draft.body!['views']).to.deep.equal(['front']);
      expect(draft.body!['requestId']).to.not.equal(main!.body!['requestId']);
    }
    expect(await uploads(fake)).to.equal(1);
    expect(tiles(el).map((t) => t.querySelector('h4')!.textContent)).to.deep.equal(['Sindoor red', 'Emerald']);
    expect(tiles(el)[0]!.querySelector('img')!.src).to.contain('/files/draft-sindoor-red-front.png');
    expect(tiles(el)[0]!.querySelector('img')!.alt).to.equal(en.previewImageAlt.replace('{product}', 'Sindoor red'));
    expect(statusText(el)).to.equal(en.coloursDone.replace('{ready}', '2').replace('{count}', '2'));
    // Nothing of a draft is downloaded or shared from here.
    const names = [...panelRoot(el).querySelectorAll('button')].map((b) => b.textContent!.trim());
    expect(names).to.not.include(en.download);
    expect(names).to.not.include(en.share);
    await expect(el).to.be.accessible();

    // Back, and again: the drafts made with this photo are kept, not asked for twice.
    button(el, en.backToResult).click();
    await until(() => !grid(el), 'the result again');
    button(el, en.seeAllColours).click();
    await allIn(el, 2);
    expect(await tryons(fake)).to.have.length(3);
  });

  it("asks for no more than the product's cap, and says so on a colour the proxy refuses", async () => {
    const { fake, el } = await result({ product: { ...lehenga, colourPreviews: 1 } }, { variant: 'ivory' });
    button(el, en.seeAllColours).click();
    await allIn(el, 1);
    expect(await tryons(fake)).to.have.length(2);
  });

  it('a colour the proxy refuses beyond its cap (colour_preview_limit) is said on that colour', async () => {
    const { fake, el } = await result({ product: lehenga, colourPreviewCap: 1 }, { variant: 'ivory' });
    button(el, en.seeAllColours).click();
    await allIn(el, 2);
    expect(await tryons(fake)).to.have.length(3);
    const states = tiles(el).map((t) => (t.querySelector('img') ? 'ready' : t.querySelector('.muted')!.textContent));
    expect(states.filter((x) => x === 'ready')).to.have.length(1);
    expect(states.filter((x) => x === en.colourUnavailable)).to.have.length(1);
    // Only a colour with its draft can be made in full quality.
    expect(grid(el)!.querySelectorAll('button[aria-labelledby]')).to.have.length(1);
    expect(statusText(el)).to.equal(en.coloursDone.replace('{ready}', '1').replace('{count}', '2'));
  });

  it('Make this one in full quality: that colour as a normal try-on without a first look, its draft shown meanwhile', async () => {
    const { fake, el } = await result(
      {
        product: lehenga,
        steps: [
          { status: 'queued' },
          { status: 'processing' },
          { hold: true },
          { status: 'succeeded', outputs: ['front'] },
        ],
      },
      { variant: 'ivory' },
      true,
    );
    const seen = recordEvents(el);
    button(el, en.seeAllColours).click();
    await allIn(el, 2);
    upgrade(el, 'Sindoor red')!.click();
    await until(() => el.status === 'queued' || el.status === 'rendering', 'the full render under way');
    const look = await until(
      () => panelRoot(el).querySelector<HTMLElement>('[part="first-look"]'),
      "the colour's draft meanwhile",
    );
    expect(look.querySelector('img')!.src).to.contain('/files/draft-sindoor-red-front.png');
    expect(look.querySelector('[part="first-look-badge"]')!.textContent!.trim()).to.equal(en.previewBadge);
    const sent = await until(
      async () => (await tryons(fake)).find((r) => r.body!['preview'] === 'off'),
      'the full render sent',
    );
    expect((await tryons(fake)).at(-1)).to.deep.equal(sent);
    expect(sent.body!['variant']).to.equal('sindoor-red');
    expect(sent.body!['preview']).to.equal('off');
    expect(sent.body!['quality']).to.equal(undefined);
    await fake.release();
    await reach(el, 'result');
    await until(
      () =>
        panelRoot(el)
          .querySelector<HTMLImageElement>('[part="result"] img[part="image"]')
          ?.src.includes('/files/sindoor-red-front.png'),
      'the full render of that colour',
    );
    expect(statusText(el)).to.equal(en.ready);
    expect(seen.filter((e) => e.type === 'tryon-preview')).to.have.length(0);
    const submit = seen.find((e) => e.type === 'tryon-submit')!;
    expect(submit.detail.variant).to.equal('sindoor-red');
    expect(await uploads(fake)).to.equal(1);
    // The page's colour (ivory) was just left for another: not offered back until the page picks another.
    expect(panelRoot(el).textContent).to.not.contain('Try this colour');
    el.setAttribute('variant', 'emerald');
    await until(
      () => panelRoot(el).textContent!.includes('Try this colour: Emerald'),
      '"Try this colour" for the page\'s new choice',
    );
  });

  it("works from the keyboard: Tab reaches each colour's button, Enter upgrades, Back returns focus to the result", async () => {
    const { el } = await result({ product: lehenga }, { variant: 'ivory' });
    const see = button(el, en.seeAllColours);
    see.focus();
    await sendKeys({ press: 'Enter' });
    await allIn(el, 2);
    await sendKeys({ press: 'Tab' });
    expect(nameOf(focused(el))).to.equal(`${en.makeFullQuality} Sindoor red`);
    await sendKeys({ press: 'Tab' });
    expect(nameOf(focused(el))).to.equal(`${en.makeFullQuality} Emerald`);
    await sendKeys({ press: 'Tab' });
    expect(focused(el)?.textContent?.trim()).to.equal(en.backToResult);
    await sendKeys({ press: 'Enter' });
    await until(() => !grid(el), 'the result again');
    await until(() => focused(el)?.id === 'step-title', "focus on the result's heading");
  });

  it('right to left in Arabic, axe-clean, and two columns on a phone', async () => {
    await viewport({ width: 390, height: 800 });
    try {
      const fake = await fakeProxy({ product: lehenga });
      const el = await mount(fake, { lang: 'ar', variant: 'ivory' });
      await openAndConsent(el, ar.continue!);
      const primary = () => panelRoot(el).querySelector<HTMLButtonElement>('button.primary')!;
      await pickPhoto(el, await drawnPhoto(400, 500));
      primary().click();
      await reach(el, 'result');
      button(el, ar.seeAllColours!).click();
      await allIn(el, 2);
      const list = grid(el)!.querySelector<HTMLElement>('.colours')!;
      expect(getComputedStyle(list).direction).to.equal('rtl');
      const [first, second] = tiles(el).map((t) => t.getBoundingClientRect());
      // Side by side, the first colour on the right.
      expect(Math.abs(first!.top - second!.top)).to.be.below(2);
      expect(first!.left).to.be.above(second!.left);
      for (const b of grid(el)!.querySelectorAll('button')) expect(b.getBoundingClientRect().height).to.be.at.least(44);
      const two = new Intl.NumberFormat('ar').format(2);
      expect(statusText(el)).to.equal(ar.coloursDone!.replace('{ready}', two).replace('{count}', two));
      await expect(el).to.be.accessible();
    } finally {
      await viewport({ width: 1280, height: 800 });
    }
  });
});
