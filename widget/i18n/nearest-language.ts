// Which of the widget's languages to speak, given a language tag from the page, the shop or the
// `lang` attribute: the exact tag if there is a dictionary for it, else its language alone
// (`bn-IN` → `bn`, `ur_PK` → `ur`), else English.

export function nearestLanguage(wanted: string | null | undefined, available: readonly string[]): string {
  const tag = (wanted ?? '').trim().replace(/_/g, '-').toLowerCase();
  if (!tag) return 'en';
  const known = new Map(available.map((code) => [code.toLowerCase(), code]));
  const exact = known.get(tag);
  if (exact) return exact;
  const primary = known.get(tag.split('-')[0]!);
  return primary ?? 'en';
}
