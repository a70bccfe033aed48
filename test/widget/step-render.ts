// Shared tools of the step unit tests (steps.test.ts, steps-result.test.ts): a step's template
// rendered into a fresh element of the page (removed after each test), the names of its buttons in
// order, and a recorder of the callbacks the buttons call.
import { render } from 'lit';
import type { TemplateResult } from 'lit';
import { Texts } from '../../widget/i18n/words/texts.js';
import type { CompareController } from '../../widget/result/compare.js';

/** The English texts, as a page with no language of its own gets them. */
export const english = new Texts({}, undefined);

/** The before/after comparison's state as a step reads it (the controller itself is the panel's). */
export const compare = {
  position: 50,
  shown: 'result',
  onPointer: () => undefined,
  onKey: () => undefined,
  togglePhoto: () => undefined,
  toggleCompare: () => undefined,
} as unknown as CompareController;

const rendered: HTMLElement[] = [];

afterEach(() => {
  for (const root of rendered.splice(0)) root.remove();
});

/** Renders `template` into an element of the page (so layout and focus work) and returns it. */
export function shown(template: TemplateResult, dir?: 'ltr' | 'rtl'): HTMLElement {
  const root = document.createElement('div');
  if (dir) root.dir = dir;
  document.body.append(root);
  rendered.push(root);
  render(template, root);
  return root;
}

/** The visible text (or aria-label) of every button, in document order. */
export function buttonNames(root: ParentNode): string[] {
  return [...root.querySelectorAll('button')].map((b) => (b.getAttribute('aria-label') ?? b.textContent ?? '').trim());
}

/** Records which callbacks were called, in order: `as('name')` is a callback that notes its name. */
export function calls(): { list: string[]; as(name: string): (...args: unknown[]) => void } {
  const list: string[] = [];
  return { list, as: (name) => () => list.push(name) };
}
