// Waiting for a program the tests start (Redis, MariaDB, a proxy instance, a package's bin) to say
// it is ready, by a line in its output.
import type { ChildProcess } from 'node:child_process';

/** Resolves with the first match of `pattern` in the process's output; rejects if it exits or the time runs out first. */
export function waitForOutput(
  child: ChildProcess,
  pattern: RegExp,
  timeoutMs: number,
  what: string,
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const done = (error?: Error, match?: RegExpExecArray) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(match!);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match) done(undefined, match);
    };
    const onExit = (code: number | null) => done(new Error(`${what} exited (${code}) before it was ready:\n${seen}`));
    const timer = setTimeout(() => done(new Error(`${what} was not ready in ${timeoutMs} ms:\n${seen}`)), timeoutMs);
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}
