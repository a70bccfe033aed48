// Unit tests of widget/run/error-policy.ts, in the browser: for every code the proxy can answer
// (proxy/http/errors.ts ERROR_CODES), the words the shopper reads, the one way on the error step offers
// (its label, or none), and the step "Try again" goes back to with the handles the tab forgets.
import { expect } from '@open-wc/testing';
import { ERROR_CODES } from '../../proxy/http/errors.js';
import { actionLabel, failure, isAbort, photoRefused, unavailableNow } from '../../widget/run/error-policy.js';
import { ProxyCallError } from '../../widget/api/proxy-client.js';
import { Texts } from '../../widget/i18n/words/texts.js';
import { en } from '../../widget/i18n/en.js';
import type { FailedStage } from '../../widget/run/session.js';

const english = new Texts({}, undefined);
const refused = (code: string, retryable = false, status = 400) => new ProxyCallError(code, { retryable, status });

/** What the error step offers for each code: no way on today, "Start again with your photo", or "Try again". */
const NOT_TODAY = [
  'daily_limit_reached',
  'daily_budget_reached',
  'origin_not_allowed',
  'unauthorized',
  'proxy_misconfigured',
];
const START_AGAIN = ['expired_handle', 'invalid_handle', 'photo_expired'];
const PHOTO = ['unsupported_media_type', 'photo_too_small', 'file_too_large', 'photo_limit_reached'];
/** Answered only to a piece put over a try-on: "Complete the look" words them itself (test/widget/outfit.test.ts). */
const OUTFIT_REFUSALS = ['not_a_pair', 'base_not_ready', 'outfit_too_long'];

describe('error policy: each proxy error code, for the shopper', () => {
  for (const code of ERROR_CODES.filter((each) => !OUTFIT_REFUSALS.includes(each))) {
    it(`${code}: its own words, and the way on its words name`, () => {
      const words = english.errorMessage(code);
      expect(words, 'never the generic words').to.not.equal(en.error_generic);
      expect(words.trim()).to.not.equal('');
      const expected = NOT_TODAY.includes(code) ? undefined : START_AGAIN.includes(code) ? 'startAgain' : 'tryAgain';
      expect(actionLabel(code)).to.equal(expected);
      // "Start again with your photo" is said only for a lost try-on or photo, and its words say so too.
      if (expected === 'startAgain') expect(words).to.match(/start again/i);
    });
  }

  it('an unknown code, or none, gets "Try again" and the generic words', () => {
    expect(actionLabel('no_such_code')).to.equal('tryAgain');
    expect(actionLabel(undefined)).to.equal('tryAgain');
    expect(english.errorMessage('no_such_code')).to.equal(en.error_generic);
  });

  it('photoRefused: only the codes that refuse the photo itself', () => {
    for (const code of ERROR_CODES) expect(photoRefused(code), code).to.equal(PHOTO.includes(code));
    expect(photoRefused(undefined)).to.equal(false);
  });
});

describe('error policy: where "Try again" starts, and what the tab forgets', () => {
  const stages: FailedStage[] = ['product', 'photo', 'upload', 'submit', 'watch', 'render'];

  for (const stage of stages) {
    it(`a failure at ${stage}`, () => {
      // A photo the proxy refused: back to the photo, nothing stored is gone.
      expect(failure(stage, refused('photo_too_small'))).to.deep.equal({
        code: 'photo_too_small',
        retryable: false,
        stage: 'photo',
        forgetTryon: false,
        forgetPhoto: false,
      });
      // An expired handle: back to the photo; the try-on is gone, and the photo too unless it failed while watching.
      expect(failure(stage, refused('expired_handle', false, 410))).to.deep.equal({
        code: 'expired_handle',
        retryable: false,
        stage: 'photo',
        forgetTryon: true,
        forgetPhoto: stage !== 'watch',
      });
      // A handle the proxy cannot open at all: the photo's handle is dead too, wherever it failed.
      expect(failure(stage, refused('invalid_handle'))).to.include({
        stage: 'photo',
        forgetTryon: true,
        forgetPhoto: true,
      });
      // A photo the try-on service no longer has: back to the photo, which the tab forgets too.
      expect(failure(stage, refused('photo_expired', false, 410))).to.deep.equal({
        code: 'photo_expired',
        retryable: false,
        stage: 'photo',
        forgetTryon: false,
        forgetPhoto: true,
      });
      expect(failure(stage, refused('unknown_product', false, 404))).to.include({
        stage: 'product',
        forgetTryon: false,
      });
      // Anything else is tried again from where it failed, retryable as the proxy said.
      expect(failure(stage, refused('upstream_timeout', true, 504))).to.deep.equal({
        code: 'upstream_timeout',
        retryable: true,
        stage,
        forgetTryon: false,
        forgetPhoto: false,
      });
    });
  }

  it('a network failure is not_answering while online, and an unexpected throw is generic and retryable', () => {
    // fetch's network failure is a TypeError; the test's browser is online.
    expect(failure('submit', new TypeError('Failed to fetch'))).to.include({ code: 'not_answering', retryable: true });
    expect(failure('render', new Error('surprise'))).to.deep.equal({
      code: 'generic',
      retryable: true,
      stage: 'render',
      forgetTryon: false,
      forgetPhoto: false,
    });
  });

  it('unavailableNow: only a product answer (200) saying the budget is spent or the product unknown', () => {
    expect(unavailableNow(refused('daily_budget_reached', false, 200))).to.equal(true);
    expect(unavailableNow(refused('unknown_product', false, 200))).to.equal(true);
    expect(unavailableNow(refused('daily_budget_reached', false, 503)), 'a refused try-on is not the product').to.equal(
      false,
    );
    expect(unavailableNow(refused('upstream_unavailable', true, 200))).to.equal(false);
    expect(unavailableNow(new Error('daily_budget_reached'))).to.equal(false);
  });

  it('isAbort: only an AbortError', () => {
    const controller = new AbortController();
    controller.abort();
    expect(isAbort(controller.signal.reason)).to.equal(true);
    expect(isAbort(new DOMException('gone', 'NotFoundError'))).to.equal(false);
    expect(isAbort(new Error('AbortError'))).to.equal(false);
  });
});
