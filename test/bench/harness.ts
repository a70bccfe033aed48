// What every benchmark gets from the runner, and how it reaches the pieces it measures.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Outcome } from './report.js';
import { Unavailable } from './report.js';

export const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');

export interface BenchContext {
  /** Smoke run: a few seconds and few connections per benchmark, to prove the code works. */
  quick: boolean;
  /** A new scratch folder, removed when the benchmark ends. */
  scratch(prefix: string): string;
  log(line: string): void;
  /** Registers a clean-up that runs when the benchmark ends, even when it fails or times out. */
  defer(cleanup: () => unknown): void;
}

export interface Benchmark {
  id: string;
  title: string;
  /** The runner stops waiting after this long and reports the benchmark as timed out. */
  limitSeconds: number;
  run(ctx: BenchContext): Promise<Omit<Outcome, 'id' | 'title' | 'seconds'>>;
}

export function scratchDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `tryon-bench-${prefix}-`));
}

/** Runs a command without a shell and gives back its output; rejects with its stderr on failure. */
export function execute(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { env: { ...process.env, ...options.env }, timeout: options.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${command} failed: ${error.message}\n${stderr.slice(-2000)}`));
        else resolve({ stdout, stderr });
      },
    );
  });
}

/**
 * Imports a module of the project by its path from the repository root. The pieces measured here
 * are written by others at the same time, so a missing one makes that benchmark say so
 * instead of breaking the type check or the whole run.
 */
export async function importProject<T>(path: string, names: (keyof T & string)[]): Promise<T> {
  const full = join(root, path);
  if (!existsSync(full)) throw new Unavailable(`${path} is not there yet`);
  const module = (await import(pathToFileURL(full).href)) as Record<string, unknown>;
  const missing = names.filter((name) => !(name in module));
  if (missing.length > 0) throw new Unavailable(`${path} does not export ${missing.join(', ')}`);
  return module as T;
}

/** Waits for a condition that cannot be awaited as an event, with a bounded number of looks. */
export async function until<T>(
  what: string,
  look: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 15_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await look();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export async function json<T>(response: Response, what: string): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}
