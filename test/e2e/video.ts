// A video's duration as the browser reads it from the file's metadata: loaded metadata means the
// browser parsed a real MP4 from wherever it came (the proxy, under a page's CSP).
import type { Locator } from 'playwright-core';

/** Resolves with the duration once the metadata is in; rejects with the media error's code. */
export function videoDuration(video: Locator): Promise<number> {
  return video.evaluate(
    (element) =>
      new Promise<number>((resolve, reject) => {
        const media = element as HTMLVideoElement;
        if (media.readyState >= 1) return resolve(media.duration);
        media.addEventListener('loadedmetadata', () => resolve(media.duration), { once: true });
        media.addEventListener('error', () => reject(new Error(`video error ${media.error?.code}`)), {
          once: true,
        });
      }),
  );
}
