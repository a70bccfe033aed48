// Unit tests of widget/i18n/words/texts.ts, in the browser: which text wins (the shop's override, the
// language's dictionary, English), the writing direction and language it reports, numbers and
// durations written by Intl in the dictionary's language, view names, and an error code's words.
import { expect } from '@open-wc/testing';
import { Texts, errorKey } from '../../widget/i18n/words/texts.js';
import { en } from '../../widget/i18n/en.js';
import type { Translation } from '../../widget/i18n/en.js';
import { ar } from '../../widget/i18n/ar.js';
import { bn } from '../../widget/i18n/bn.js';
import { gu } from '../../widget/i18n/gu.js';
import { hi } from '../../widget/i18n/hi.js';
import { mr } from '../../widget/i18n/mr.js';
import { ta } from '../../widget/i18n/ta.js';
import { te } from '../../widget/i18n/te.js';
import { ur } from '../../widget/i18n/ur.js';
import { MIN_SHORT_SIDE } from '../../widget/photo/photo.js';

/** A dictionary that says what it is and translates nothing yet. */
const bare: Translation = { $code: 'xx', $name: 'Test', $dir: 'ltr' };

describe('Texts: which words win', () => {
  it("the shop's override, then the language's dictionary, then English", () => {
    const texts = new Texts({ close: 'Shut' }, ar);
    expect(texts.t('close')).to.equal('Shut');
    expect(texts.t('dialogTitle')).to.equal(ar.dialogTitle);
    expect(texts.t('dialogTitle')).to.not.equal(en.dialogTitle);
    expect(new Texts({}, bare).t('dialogTitle'), 'a text the dictionary lacks is English').to.equal(en.dialogTitle);
    expect(new Texts({}, undefined).t('close')).to.equal('Close');
  });

  it('fills {names} with the values given, and leaves a name without a value as it is', () => {
    const texts = new Texts({ progressTitle: 'Putting {product} on {who}' }, undefined);
    expect(texts.t('progressTitle', { product: 'a saree' })).to.equal('Putting a saree on {who}');
    expect(texts.t('consentBody', { product: 'Red saree' })).to.equal(en.consentBody.replace('{product}', 'Red saree'));
  });

  it('fills the facts it was given into any text, under the values a call passes', () => {
    const texts = new Texts({ progressTitle: '{product}: {minSide}' }, undefined, { minSide: 256, product: 'a fact' });
    expect(texts.t('progressTitle')).to.equal('a fact: 256');
    expect(texts.t('progressTitle', { product: 'a saree' })).to.equal('a saree: 256');
    expect(new Texts({}, undefined).errorMessage('photo_too_small'), 'without the fact, the name stays').to.contain(
      '{minSide}',
    );
  });
});

describe('Texts: language and direction', () => {
  const languages: [Translation, 'ltr' | 'rtl'][] = [
    [ar, 'rtl'],
    [ur, 'rtl'],
    [bn, 'ltr'],
    [gu, 'ltr'],
    [hi, 'ltr'],
    [mr, 'ltr'],
    [ta, 'ltr'],
    [te, 'ltr'],
  ];
  for (const [translation, dir] of languages) {
    it(`${translation.$code}: ${dir}, its own code, its own words`, () => {
      const texts = new Texts({}, translation);
      expect(texts.dir).to.equal(dir);
      expect(texts.code).to.equal(translation.$code);
      expect(texts.t('submit')).to.equal(translation.submit);
      expect(texts.t('submit')).to.not.equal(en.submit);
    });
  }

  it("without a dictionary: English, and the page's own direction left alone", () => {
    const texts = new Texts({}, undefined);
    expect(texts.code).to.equal('en');
    expect(texts.dir).to.equal(undefined);
  });
});

describe('Texts: numbers, percents and durations in the language', () => {
  it('Bengali writes its own digits, in a filled text and in a percent', () => {
    const texts = new Texts({}, bn, { minSide: MIN_SHORT_SIDE });
    const side = [...String(MIN_SHORT_SIDE)].map((digit) => '০১২৩৪৫৬৭৮৯'[Number(digit)]).join('');
    expect(texts.errorMessage('photo_too_small')).to.contain(side);
    expect(texts.errorMessage('photo_too_small')).to.not.match(/[0-9]/);
    expect(texts.percent(42)).to.contain('৪২');
  });

  it('English durations in the largest exact unit, and seconds spelt out', () => {
    const texts = new Texts({}, undefined, { minSide: MIN_SHORT_SIDE });
    expect(texts.duration(86_400)).to.equal('1 day');
    expect(texts.duration(3600)).to.equal('1 hour');
    expect(texts.duration(5400)).to.equal('90 minutes');
    expect(texts.seconds(12)).to.equal('12 seconds');
    expect(texts.percent(42)).to.equal('42%');
    expect(texts.errorMessage('photo_too_small')).to.equal(
      en.error_photo_too_small.replace('{minSide}', String(MIN_SHORT_SIDE)),
    );
  });

  it('Hindi durations are not English', () => {
    const texts = new Texts({}, hi);
    expect(texts.duration(86_400)).to.not.equal('1 day');
    expect(texts.duration(86_400)).to.contain('1');
  });
});

describe('Texts: views and error codes', () => {
  it("a known view by the dictionary's name, an unknown one by its own words", () => {
    expect(new Texts({}, ar).viewName('front')).to.equal(ar.view_front);
    expect(new Texts({}, undefined).viewName('back')).to.equal('Back');
    expect(new Texts({}, undefined).viewName('over_the_shoulder')).to.equal('over the shoulder');
  });

  it('codes that mean the same to a shopper share one sentence; others have their own; unknown ones the generic', () => {
    expect(errorKey('origin_not_allowed')).to.equal('error_unauthorized');
    expect(errorKey('internal_error')).to.equal('error_upstream_unavailable');
    expect(errorKey('colour_preview_limit')).to.equal('error_photo_limit_reached');
    expect(errorKey('rate_limited')).to.equal('error_rate_limited');
    const texts = new Texts({}, ta);
    expect(texts.errorMessage('proxy_misconfigured')).to.equal(ta.error_unauthorized);
    expect(texts.errorMessage('rate_limited')).to.equal(ta.error_rate_limited);
    expect(texts.errorMessage('no_such_code')).to.equal(ta.error_generic);
  });
});
