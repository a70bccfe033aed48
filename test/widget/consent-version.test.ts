import { expect } from '@open-wc/testing';
import { consentVersion, consentWords } from '../../widget/run/consent-version.js';

describe('consent version', () => {
  it('is the first 16 hex digits of the SHA-256 of the words', async () => {
    // SHA-256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
    expect(await consentVersion('abc')).to.equal('ba7816bf8f01cfea');
  });

  it('changes when one word changes, and not when only the spacing does', async () => {
    const a = consentWords(['Your photo, your choice', 'We keep your photo for 1 hour.']);
    const b = consentWords(['Your photo, your choice', 'We keep your photo for 2 hours.']);
    const spaced = consentWords(['  Your photo,  your choice ', 'We keep your photo\nfor 1 hour.']);
    expect(await consentVersion(a)).to.not.equal(await consentVersion(b));
    expect(await consentVersion(spaced)).to.equal(await consentVersion(a));
  });

  it('gives the same version for the same words however their letters were composed', async () => {
    // "é" as one code point and as e + combining accent.
    expect(await consentVersion(consentWords(['caf\u00e9']))).to.equal(
      await consentVersion(consentWords(['cafe\u0301'])),
    );
  });
});
