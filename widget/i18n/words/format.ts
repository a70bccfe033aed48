// Numbers and durations in the shopper's language, through Intl: its own digits (৪২%, ٤٢٪),
// its own unit words and plural forms, so no dictionary spells a number or a unit itself.

/** A whole percent, 0 to 100. */
export function formatPercent(lang: string, percent: number): string {
  return new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 }).format(percent / 100);
}

/** A plain number, with at most `fractionDigits` decimals. */
export function formatNumber(lang: string, value: number, fractionDigits = 0): string {
  return new Intl.NumberFormat(lang, { maximumFractionDigits: fractionDigits }).format(value);
}

type DurationUnit = 'day' | 'hour' | 'minute' | 'second';

const UNIT_SECONDS: [DurationUnit, number][] = [
  ['day', 86_400],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

function unitText(lang: string, value: number, unit: DurationUnit): string {
  return new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'long', maximumFractionDigits: 0 }).format(
    value,
  );
}

/** Whole seconds, spelt out ("12 seconds", "১২ সেকেন্ড"). */
export function formatSeconds(lang: string, seconds: number): string {
  return unitText(lang, Math.max(0, Math.round(seconds)), 'second');
}

/**
 * A retention period in the largest unit that states it exactly (86 400 s → "1 day",
 * 5400 s → "90 minutes"), so the consent step never rounds what the shop promised.
 */
export function formatDuration(lang: string, seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const [unit, size] = UNIT_SECONDS.find(([, size]) => whole >= size && whole % size === 0) ?? ['second', 1];
  return unitText(lang, whole / size, unit);
}
