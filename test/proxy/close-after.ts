// A test's own resources closed when it ends, passed or failed, through node:test's TestContext:
// the proxy tests' stacks (stack.ts `useStack`), and any proxy, sandbox, server or page a test opens.
import type { TestContext } from 'node:test';

/** Anything a test opens that must be closed when it ends: a stack, a proxy, a sandbox, a server. */
export interface Closable {
  close(): unknown;
}

const openedIn = new WeakMap<TestContext, Closable[]>();

/**
 * Closes `resource` when the test `t` ends, passed or failed (node:test's `t.after`), so a test that opens
 * its own stack needs no `try … finally`. What one test opened closes in the reverse order it was opened
 * (a second proxy on the first one's sandbox goes first), as `await using` would; Node 20, the floor,
 * has no `await using`.
 */
export function closeAfter<T extends Closable>(t: TestContext, resource: T): T {
  let opened = openedIn.get(t);
  if (!opened) {
    const list: Closable[] = [];
    opened = list;
    openedIn.set(t, list);
    t.after(async () => {
      for (const each of list.reverse()) await each.close();
    });
  }
  opened.push(resource);
  return resource;
}
