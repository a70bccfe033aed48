// The photo check (photo-check="warn", the default) refuses the drawn and flat-colour photos most
// browser tests upload: they go on as a shopper may, with "Use it anyway". A real photo of a person
// passes and this waits for "Try it on". Tests of the check itself: test/widget/photo-check.test.ts.
import type { Locator } from 'playwright-core';

/** The buttons' names in the widget's language: English unless a test opens it in another. */
export interface CheckButtonNames {
  send: string[];
  anyway: string;
}

const ENGLISH: CheckButtonNames = { send: ['Try it on', 'Send to my computer'], anyway: 'Use it anyway' };

export async function goOnPastPhotoCheck(dialog: Locator, names: CheckButtonNames = ENGLISH): Promise<void> {
  // "Try it on" once the photo may be sent; on a phone in a hand-off, "Send to my computer".
  const send = names.send
    .map((name) => dialog.getByRole('button', { name, exact: true }))
    .reduce((either, next) => either.or(next));
  const anyway = dialog.getByRole('button', { name: names.anyway, exact: true });
  // The first check of a page loads the worker and its models.
  await send.or(anyway).first().waitFor({ state: 'visible', timeout: 60_000 });
  if (await anyway.isVisible()) await anyway.click();
}
