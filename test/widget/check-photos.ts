// What the photo check's browser tests share: the real test photos (opencv-doc, test/photos/people.ts,
// served by test/widget/photo-check-files.js), the products they are checked against, and picking a
// photo as the shopper would, up to the check's verdict (its event, `tryon-photo-check`).
import type { TryonButton } from '../../widget/tryon-button.js';
import type { TryonPhotoCheckDetail } from '../../widget/core/events.js';
import { openAndConsent, panelRoot, pickPhoto, until, type Fake } from './helpers.js';

/** The test photos (PEOPLE_PHOTOS of test/photos/people.ts, a Node module) and the demo shop's sample. */
export type PhotoName =
  'full' | 'half' | 'padded' | 'several' | 'none' | 'books' | 'graffiti' | 'dark' | 'blurred' | 'small' | 'sample';

const photos = new Map<PhotoName, File>();
export async function photo(name: PhotoName): Promise<File> {
  let found = photos.get(name);
  if (!found) {
    const response = await fetch(`/test-photos/people/${name}.jpg`);
    if (!response.ok)
      throw new Error(`no test photo ${name} (${response.status}): is opencv-doc installed (OPENCV_DATA_PATH)?`);
    found = new File([await response.blob()], `${name}.jpg`, { type: 'image/jpeg' });
    photos.set(name, found);
  }
  return found;
}

export const saree = {
  product: 'saree-red',
  views: ['front'],
  video: false,
  tier: 'standard',
  name: 'Red Banarasi saree',
  fullBody: true,
};
export const kurta = { ...saree, product: 'kurta-white', name: 'White kurta', fullBody: false };

export function checks(el: HTMLElement): TryonPhotoCheckDetail[] {
  const seen: TryonPhotoCheckDetail[] = [];
  el.addEventListener('tryon-photo-check', (event) => seen.push(event.detail));
  return seen;
}

export const uploads = async (fake: Fake) =>
  (await fake.log()).filter((r) => r.method === 'POST' && r.path === '/photos').length;
export const verdict = (el: TryonButton) => panelRoot(el).querySelector<HTMLElement>('[part="photo-check"]');

/** Picks a photo as the shopper would, leaving the element's photo-check as it is (pickPhoto turns an absent one off). */
export async function pick(el: TryonButton, file: File): Promise<void> {
  if (el.hasAttribute('photo-check')) return pickPhoto(el, file);
  const input = panelRoot(el).querySelector<HTMLInputElement>('#file')!;
  const transfer = new DataTransfer();
  transfer.items.add(file);
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

/** Opens, consents, picks the photo and waits for the check's verdict (its event). */
export async function checked(
  el: TryonButton,
  name: PhotoName,
  seen: TryonPhotoCheckDetail[],
  continueLabel?: string,
): Promise<TryonPhotoCheckDetail> {
  await openAndConsent(el, continueLabel);
  const before = seen.length;
  await pick(el, await photo(name));
  // The first check of a page loads the worker and the models: slow under load in Firefox and WebKit.
  await until(() => seen.length > before, `the check of the ${name} photo`, 40_000);
  const panel = el.shadowRoot!.querySelector('tryon-panel') as unknown as { updateComplete: Promise<unknown> };
  await panel.updateComplete;
  return seen[seen.length - 1]!;
}
