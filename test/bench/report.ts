// The bench report: every figure beside its goal, as plain text for the terminal and the
// dated file, and as Markdown for test/bench/latest.md (which the README quotes).
import { cpus, loadavg } from 'node:os';

export type Verdict = 'pass' | 'fail' | 'info';

export interface Figure {
  label: string;
  value: string;
  goal?: string;
  verdict: Verdict;
  /**
   * A failed enforced figure makes `npm run bench` exit non-zero: page weight, and the regression
   * regression guards (the LCP delta and the longest main-thread task of photo preparation).
   */
  enforced?: boolean;
}

export interface Outcome {
  id: string;
  title: string;
  figures: Figure[];
  notes: string[];
  /** Set when the benchmark could not run; the reason is printed instead of figures. */
  unavailable?: string;
  seconds: number;
}

/** Thrown by a benchmark that cannot run here (a missing piece, no browser): reported, not fatal. */
export class Unavailable extends Error {}

export function figure(label: string, value: string, goal?: string, ok?: boolean, enforced = false): Figure {
  const verdict: Verdict = ok === undefined ? 'info' : ok ? 'pass' : 'fail';
  return { label, value, verdict, enforced, ...(goal === undefined ? {} : { goal }) };
}

/** The regression guards: what the widget may cost a product page and a tap, at most. */
export const LCP_DELTA_GOAL_MS = 50;
export const LONG_TASK_GOAL_MS = 50;

const signedMs = (value: number) => `${value > 0 ? '+' : ''}${ms(value)}`;

/** LCP with the widget minus without it: enforced, ≤ +50 ms. A figure that could not be read fails. */
export function lcpDeltaFigure(label: string, withWidget: number, without: number): Figure {
  const delta = withWidget - without;
  return figure(
    `${label} (${ms(withWidget)} with, ${ms(without)} without)`,
    Number.isFinite(delta) ? signedMs(delta) : 'not measured',
    `≤ +${LCP_DELTA_GOAL_MS} ms`,
    Number.isFinite(delta) && delta <= LCP_DELTA_GOAL_MS,
    true,
  );
}

/**
 * The longest main-thread task seen while a photo was prepared: enforced, under 50 ms (a task of
 * 50 ms or more is a long task, what delays a tap). `undefined` = the probe saw nothing at all, a fail.
 */
export function longestTaskFigure(label: string, longest: number | undefined): Figure {
  const seen = longest !== undefined && Number.isFinite(longest);
  return figure(
    label,
    seen ? ms(longest) : 'not measured',
    `< ${LONG_TASK_GOAL_MS} ms`,
    seen && longest < LONG_TASK_GOAL_MS,
    true,
  );
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const ms = (value: number) => (value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(1)} ms`);
export const ratio = (value: number) => `${value.toFixed(2)}×`;

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface RunInfo {
  startedAt: Date;
  quick: boolean;
  seconds: number;
}

export function machineLine(info: RunInfo): string {
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  return (
    `${info.startedAt.toISOString()} · node ${process.version} · ${cpus().length} cores · ` +
    `load ${load} · ${info.quick ? 'quick (smoke) run' : 'full run'} · ${info.seconds.toFixed(0)} s`
  );
}

const VERDICT_TEXT: Record<Verdict, string> = { pass: 'PASS', fail: 'FAIL', info: '' };

export function toText(outcomes: Outcome[], info: RunInfo): string {
  const lines = ['tryon-button benchmarks', machineLine(info), ''];
  for (const outcome of outcomes) {
    lines.push(`== ${outcome.title} (${outcome.seconds.toFixed(0)} s) ==`);
    if (outcome.unavailable) lines.push(`  could not run: ${outcome.unavailable}`);
    const labelWidth = Math.max(0, ...outcome.figures.map((f) => f.label.length));
    const valueWidth = Math.max(0, ...outcome.figures.map((f) => f.value.length));
    const goalWidth = Math.max(0, ...outcome.figures.map((f) => (f.goal ? `goal ${f.goal}` : '').length));
    for (const f of outcome.figures) {
      const goal = f.goal ? `goal ${f.goal}` : '';
      lines.push(
        `  ${f.label.padEnd(labelWidth)}  ${f.value.padStart(valueWidth)}  ${goal.padEnd(goalWidth)}  ${VERDICT_TEXT[f.verdict]}`.trimEnd(),
      );
    }
    for (const note of outcome.notes) lines.push(`  · ${note}`);
    lines.push('');
  }
  const failed = outcomes.flatMap((o) =>
    o.figures.filter((f) => f.verdict === 'fail').map((f) => `${o.id}: ${f.label}`),
  );
  const unavailable = outcomes.filter((o) => o.unavailable).map((o) => o.id);
  lines.push(
    `Summary: ${countVerdicts(outcomes, 'pass')} pass, ${failed.length} fail` +
      (unavailable.length ? `, could not run: ${unavailable.join(', ')}` : ''),
  );
  for (const name of failed) lines.push(`  FAIL ${name}`);
  const enforced = enforcedFailures(outcomes);
  if (enforced.length > 0) lines.push(`Enforced goals missed (the bench exits 1): ${enforced.length}`);
  return `${lines.join('\n')}\n`;
}

/**
 * What makes the bench fail: every enforced figure that failed, and every benchmark holding an
 * enforced figure (`guarded`) that could not run at all, since a guard that did not look proves nothing.
 */
export function enforcedFailures(outcomes: Outcome[], guarded: string[] = []): string[] {
  return outcomes.flatMap((o) => [
    ...(o.unavailable !== undefined && guarded.includes(o.id) ? [`${o.id}: could not run (${o.unavailable})`] : []),
    ...o.figures
      .filter((f) => f.enforced && f.verdict === 'fail')
      .map((f) => `${o.id}: ${f.label} ${f.value} (goal ${f.goal ?? '–'})`),
  ]);
}

const escapeCell = (text: string) => text.replaceAll('|', '\\|');

export function toMarkdown(outcomes: Outcome[], info: RunInfo): string {
  const lines = [
    '# Latest benchmark figures',
    '',
    `Measured by \`npm run bench\` on ${machineLine(info)}.`,
    'Timings are ratios or medians from one run on a shared, noisy machine; see docs/performance.md for how to read them.',
    '',
  ];
  for (const outcome of outcomes) {
    lines.push(`## ${outcome.title}`, '');
    if (outcome.unavailable) lines.push(`Could not run: ${escapeCell(outcome.unavailable)}`, '');
    if (outcome.figures.length > 0) {
      lines.push('| Figure | Measured | Goal | Verdict |', '|---|---:|---|---|');
      for (const f of outcome.figures) {
        lines.push(
          `| ${escapeCell(f.label)} | ${escapeCell(f.value)} | ${escapeCell(f.goal ?? '')} | ${VERDICT_TEXT[f.verdict].toLowerCase()} |`,
        );
      }
      lines.push('');
    }
    for (const note of outcome.notes) lines.push(`- ${escapeCell(note)}`);
    if (outcome.notes.length > 0) lines.push('');
  }
  const failed = outcomes.reduce((sum, o) => sum + o.figures.filter((f) => f.verdict === 'fail').length, 0);
  lines.push(`**Summary:** ${countVerdicts(outcomes, 'pass')} pass, ${failed} fail.`, '');
  return lines.join('\n');
}

function countVerdicts(outcomes: Outcome[], verdict: Verdict): number {
  return outcomes.reduce((sum, o) => sum + o.figures.filter((f) => f.verdict === verdict).length, 0);
}
