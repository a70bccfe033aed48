import { expect } from '@open-wc/testing';
import { formatDuration, formatNumber, formatPercent, formatSeconds } from '../../widget/i18n/words/format.js';

describe('Intl formatting', () => {
  it("writes percents in the language's own digits and sign", () => {
    expect(formatPercent('en', 42)).to.equal('42%');
    expect(formatPercent('bn', 42)).to.equal('৪২%');
    // Egyptian Arabic writes Arabic-Indic digits; Intl knows, the dictionary need not.
    expect(formatPercent('ar-EG', 42)).to.match(/^٤٢/);
  });

  it('spells seconds out with the plural the language needs', () => {
    expect(formatSeconds('en', 1)).to.equal('1 second');
    expect(formatSeconds('en', 12.4)).to.equal('12 seconds');
    expect(formatSeconds('hi', 12)).to.equal('12 सेकंड');
    expect(formatSeconds('ar', 2)).to.equal('ثانيتان');
    expect(formatSeconds('ar-EG', 12)).to.contain('١٢');
  });

  it('states a retention period in the largest unit that is exact', () => {
    expect(formatDuration('en', 3600)).to.equal('1 hour');
    expect(formatDuration('en', 86_400)).to.equal('1 day');
    expect(formatDuration('en', 2 * 86_400)).to.equal('2 days');
    expect(formatDuration('en', 5400)).to.equal('90 minutes');
    expect(formatDuration('en', 45)).to.equal('45 seconds');
    expect(formatDuration('ta', 3600)).to.not.contain('hour');
  });

  it('formats sizes with decimals', () => {
    expect(formatNumber('en', 31.25, 1)).to.equal('31.3');
    expect(formatNumber('mr', 31.25, 1)).to.equal('३१.३');
  });
});
