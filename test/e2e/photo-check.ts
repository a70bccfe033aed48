// The photo check (photo-check="warn", the default) refuses the drawn and flat-colour photos most
// browser tests upload: they go on as a shopper may, with "Use it anyway". A real photo of a person
// passes and this waits for "Try it on". Tests of the check itself: test/widget/photo-check.test.ts.
import type { Locator } from 'playwright-core';

export async function goOnPastPhotoCheck(dialog: Locator): Promise<void> {
  const send = dialog.getByRole('button', { name: 'Try it on', exact: true });
  const anyway = dialog.getByRole('button', { name: 'Use it anyway', exact: true });
  // The first check of a page loads the worker and its models.
  await send.or(anyway).first().waitFor({ state: 'visible', timeout: 60_000 });
  if (await anyway.isVisible()) await anyway.click();
}
