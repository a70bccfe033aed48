// The table `npm test` ends with: each suite that ran, how many tests it counted and how long it
// took, so that a suite growing slower shows in every run's output (CI's log included), beside the
// whole run's wall-clock time. The suites run side by side (scripts/test.ts), so their seconds add up
// to more than the run's.

export interface SuiteTiming {
  suite: string;
  /** Tests counted: passed, failed and skipped. */
  tests: number;
  failed: number;
  seconds: number;
}

/** The table as printed: one row per suite in the order given, then the run's own wall-clock time. */
export function timingTable(rows: readonly SuiteTiming[], wallSeconds: number): string {
  const header = ['suite', 'tests', 'seconds'];
  const body = rows.map((row) => [
    row.failed > 0 ? `${row.suite} (${row.failed} failed)` : row.suite,
    String(row.tests),
    row.seconds.toFixed(0),
  ]);
  const footer = [
    'whole run (wall clock)',
    String(rows.reduce((sum, row) => sum + row.tests, 0)),
    wallSeconds.toFixed(0),
  ];
  const all = [header, ...body, footer];
  const widths = header.map((_, column) => Math.max(...all.map((cells) => cells[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ');
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(header), rule, ...body.map(line), rule, line(footer)].join('\n');
}
