// "See all colours": the product's other colours as draft previews with the same photo (no new
// upload), one request each up to the product's cap, as a row of thumbnails named with their colour
// (one shown large) that a keyboard and a screen reader can use, right to left and on a phone;
// "Make this one in full quality" makes that colour a normal try-on without a first look of its
// own, its draft shown while it is made.
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
/** A colour's thumbnail button, by the colour's name. */
const thumbnail = (el: TryonButton, name: string) =>
  tiles(el)
    .map((tile) => tile.querySelector('button')!)
    .find((b) => b.querySelector('.colour-label')!.textContent!.trim() === name);
/** The accessible name of "Make this one in full quality": its own text, then the colour shown large (aria-labelledby). */
const nameOf = (button: Element | null | undefined): string => {
  const root = button?.getRootNode() as ShadowRoot | undefined;
  return (button?.getAttribute('aria-labelledby') ?? '')
    .split(' ')
    .map((id) => root?.getElementById(id)?.textContent?.trim())
    .join(' ');
};
/** "Make this one in full quality <colour>": the colour chosen first, as a shopper does. */
const upgrade = (el: TryonButton, name: string) => {
  thumbnail(el, name)!.click();
  return until(
    () =>
      [...panelRoot(el).querySelectorAll<HTMLButtonElement>('button[aria-labelledby]')].find(
        (b) => nameOf(b) === `${en.makeFullQuality} ${name}`,
      ),
    `"Make this one in full quality ${name}"`,
  );
};

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
    // A row of real thumbnails, each a button named with its colour; the first shown large.
    expect(tiles(el).map((t) => t.querySelector('button')!.textContent!.trim())).to.deep.equal([
      'Sindoor red',
      'Emerald',
    ]);
    expect(tiles(el)[0]!.querySelector('img')!.src).to.contain('/files/draft-sindoor-red-front.png');
    expect(tiles(el)[1]!.querySelector('img')!.src).to.contain('/files/draft-emerald-front.png');
    const large = () => grid(el)!.querySelector<HTMLImageElement>('.frame img[part="image"]')!;
    expect(large().alt).to.equal(en.previewImageAlt.replace('{product}', 'Sindoor red'));
    expect(large().src).to.contain('/files/draft-sindoor-red-front.png');
    expect(thumbnail(el, 'Sindoor red')!.getAttribute('aria-pressed')).to.equal('true');
    // Choosing a thumbnail shows that colour large.
    thumbnail(el, 'Emerald')!.click();
    await until(() => large().src.includes('/files/draft-emerald-front.png'), 'Emerald large');
    expect(large().alt).to.equal(en.previewImageAlt.replace('{product}', 'Emerald'));
    expect(thumbnail(el, 'Emerald')!.getAttribute('aria-pressed')).to.equal('true');
    expect(thumbnail(el, 'Sindoor red')!.getAttribute('aria-pressed')).to.equal('false');
    const drafted = tiles(el).map((t) => t.querySelector<HTMLImageElement>('img')!);
    for (const thumb of drafted) {
      const r = thumb.getBoundingClientRect();
      expect(Math.min(r.width, r.height), 'a real thumbnail, not a dot').to.be.at.least(60);
    }
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
    // The one with its draft is shown large and can be made in full quality; the other cannot.
    expect(grid(el)!.querySelectorAll('button[aria-labelledby]')).to.have.length(1);
    const refused = tiles(el)
      .find((t) => !t.querySelector('img'))!
      .querySelector('button')!;
    refused.click();
    await until(() => refused.getAttribute('aria-pressed') === 'true', 'the refused colour chosen');
    expect(grid(el)!.querySelector('.frame')!.textContent!.trim()).to.equal(en.colourUnavailable);
    expect(grid(el)!.querySelectorAll('button[aria-labelledby]')).to.have.length(0);
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
    (await upgrade(el, 'Sindoor red')).click();
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

  it("works from the keyboard: Tab reaches each colour's thumbnail, Enter shows it large, then full quality; Back returns focus to the result", async () => {
    const { el } = await result({ product: lehenga }, { variant: 'ivory' });
    const see = button(el, en.seeAllColours);
    see.focus();
    await sendKeys({ press: 'Enter' });
    await allIn(el, 2);
    await sendKeys({ press: 'Tab' });
    expect(focused(el)?.textContent?.trim()).to.equal('Sindoor red');
    await sendKeys({ press: 'Tab' });
    expect(focused(el)?.textContent?.trim()).to.equal('Emerald');
    await sendKeys({ press: 'Enter' });
    await until(() => focused(el)?.getAttribute('aria-pressed') === 'true', 'Emerald chosen, focus kept');
    await sendKeys({ press: 'Tab' });
    expect(nameOf(focused(el))).to.equal(`${en.makeFullQuality} Emerald`);
    await sendKeys({ press: 'Tab' });
    expect(focused(el)?.textContent?.trim()).to.equal(en.backToResult);
    await sendKeys({ press: 'Enter' });
    await until(() => !grid(el), 'the result again');
    await until(() => focused(el)?.id === 'step-title', "focus on the result's heading");
  });

  it('right to left in Arabic, axe-clean, and a row of 44 px thumbnails on a phone', async () => {
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
      // WebKitGTK evaluates a stylesheet's @media again only once it is adopted anew (result-layout.test.ts).
      const adopted = panelRoot(el);
      adopted.adoptedStyleSheets = [...adopted.adoptedStyleSheets];
      const list = grid(el)!.querySelector<HTMLElement>('.colours')!;
      expect(getComputedStyle(list).direction).to.equal('rtl');
      const [first, second] = tiles(el).map((t) => t.getBoundingClientRect());
      // Side by side, the first colour on the right.
      expect(Math.abs(first!.top - second!.top)).to.be.below(2);
      expect(first!.left).to.be.above(second!.left);
      for (const b of grid(el)!.querySelectorAll('button')) {
        const r = b.getBoundingClientRect();
        expect(Math.min(r.width, r.height)).to.be.at.least(44);
      }
      // Each named with its colour as the shop names it.
      expect(tiles(el).map((t) => t.querySelector('button')!.textContent!.trim())).to.deep.equal([
        'Sindoor red',
        'Emerald',
      ]);
      const two = new Intl.NumberFormat('ar').format(2);
      expect(statusText(el)).to.equal(ar.coloursDone!.replace('{ready}', two).replace('{count}', two));
      await expect(el).to.be.accessible();
    } finally {
      await viewport({ width: 1280, height: 800 });
    }
  });
});
