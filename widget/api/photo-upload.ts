// The photo's upload to the shop's proxy (POST /photos) through XMLHttpRequest, the one browser API
// that reports upload progress, so the progress bar moves while a large photo goes up on a slow line.
import type { UploadedPhoto } from './proxy-answers.js';
import { abortError, errorFrom, noAnswer, ProxyCallError } from './proxy-errors.js';

/**
 * Uploads `photo` as multipart form data to `url`; `fields` go before the photo (a hand-off's code
 * and consent: the proxy judges them before the photo streams on). Rejects with an AbortError when
 * `signal` aborts, a ProxyCallError for a refusal or no answer.
 */
export function uploadPhoto(
  url: string,
  photo: Blob,
  onProgress?: (percent: number) => void,
  signal?: AbortSignal,
  fields: Record<string, string> = {},
): Promise<UploadedPhoto> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const xhr = new XMLHttpRequest();
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const name = photo instanceof File ? photo.name : photo.type === 'image/jpeg' ? 'photo.jpg' : 'photo';
    form.append('photo', photo, name);
    xhr.open('POST', url);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.round((event.loaded / event.total) * 100));
    };
    const abort = () => xhr.abort();
    signal?.addEventListener('abort', abort, { once: true });
    xhr.onabort = () => reject(abortError());
    xhr.onerror = () => reject(noAnswer());
    xhr.onload = async () => {
      signal?.removeEventListener('abort', abort);
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(await errorFrom(xhr.status, xhr.responseText, xhr.getResponseHeader('retry-after')));
        return;
      }
      try {
        resolve(JSON.parse(xhr.responseText) as UploadedPhoto);
      } catch {
        reject(new ProxyCallError('bad_answer', { retryable: true, status: xhr.status }));
      }
    };
    xhr.send(form);
  });
}
