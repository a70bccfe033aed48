// What "Use your phone" does, in the chunk loaded when the shopper asks for it (alternatives.ts).
// On the computer: a code from the proxy, its QR code, the time left, and a watch until the
// phone's photo arrives, then tried on at once. On the phone: the photo sent to that code. The
// state lives in the dialog's PhoneHandoff.
import { ProxyCallError } from './proxy-client.js';
import type { ProxyClient } from './proxy-client.js';
import type { Texts } from './texts.js';
import { phoneAddress, qrCode, spacedCode } from './handoff.js';
import { watchHandoff } from './handoff-watch.js';

/** The computer's hand-off on screen. */
export interface Desk {
  state: 'starting' | 'waiting' | 'expired' | 'failed';
  code?: string;
  expiresAt?: number;
  qr?: string;
  problem: string;
}

/** On the phone: the code, and how sending the photo went. */
export interface Phone {
  code: string;
  state: 'ready' | 'sending' | 'sent' | 'refused';
  problem: string;
}

/** What the hand-off asks of the panel. */
export interface PhoneHandoffOptions {
  client(): ProxyClient;
  /** The product's id as the proxy knows it, and the variant chosen on the page. */
  product(): string;
  variant(): string | undefined;
  texts(): Texts;
  /** The phone's photo arrived: tried on at once (`expiresAt`: until when its handle is counted on). */
  received(photo: string, expiresAt: string): void;
  /** On the phone: uploads the photo to the computer's hand-off `code`. */
  send(code: string, photo: Blob): Promise<void>;
  /** The step changed what it shows: focus goes to its first control. */
  focusStep(): void;
}

/** What the hand-off's state is kept on (the dialog's PhoneHandoff controller). */
interface DeskHolder {
  desk: Desk | undefined;
  end(): void;
}

/**
 * Until when the desktop counts on a photo given by a hand-off: the hand-off answer does not say
 * when the photo's handle ends, so the code's own end is taken (a photo outlives its code by the
 * proxy's photo lifetime, an hour by default); past it, "Try this colour" asks for a photo again.
 */
const handoffPhotoExpiry = (codeExpiresAt: number): string => new Date(codeExpiresAt).toISOString();

/** Starts a hand-off on the computer; `end()` stops its watch and countdown. */
export function startDesk(holder: DeskHolder, options: PhoneHandoffOptions): { end(): void } {
  const watch = new AbortController();
  let tick: ReturnType<typeof setInterval> | undefined;
  const stopTimers = () => clearInterval(tick);
  const running = {
    end() {
      watch.abort();
      stopTimers();
    },
  };
  const current = () => !watch.signal.aborted;
  holder.desk = { state: 'starting', problem: '' };
  options.focusStep();
  const client = options.client();
  void (async () => {
    try {
      const started = await client.startHandoff(options.product(), options.variant() || undefined, watch.signal);
      const expiresAt = Date.parse(started.expiresAt);
      holder.desk = { state: 'waiting', code: spacedCode(started.code), expiresAt, problem: '' };
      tick = setInterval(() => {
        const desk = holder.desk;
        // Set even when unchanged: the dialog renders the time left again.
        holder.desk =
          desk?.state === 'waiting' && Date.now() >= (desk.expiresAt ?? 0) ? { ...desk, state: 'expired' } : desk;
      }, 1000);
      void qrCode(phoneAddress(started.code))
        .then((qr) => {
          if (current() && holder.desk) holder.desk = { ...holder.desk, qr };
        })
        .catch(() => {
          // Without its QR code the code in letters still works: said, not hidden.
          if (current() && holder.desk) holder.desk = { ...holder.desk, problem: options.texts().t('error_generic') };
        });
      const final = await watchHandoff(client.watched, started.handoff, () => undefined, watch.signal);
      if (!current()) return;
      if (final.status === 'received' && final.photo) {
        holder.end();
        holder.desk = undefined;
        options.received(final.photo, handoffPhotoExpiry(expiresAt));
      } else {
        stopTimers();
        holder.desk = { ...holder.desk!, state: 'expired' };
        options.focusStep();
      }
    } catch (error) {
      if (!current()) return;
      stopTimers();
      holder.desk = {
        state: 'failed',
        problem: options.texts().errorMessage(error instanceof ProxyCallError ? error.code : 'generic'),
      };
      options.focusStep();
    }
  })();
  return running;
}

/** On the phone: sends the photo to the computer's hand-off (`phone`'s code) and says how it went. */
export async function sendFromPhone(
  holder: { phone: Phone | undefined },
  options: PhoneHandoffOptions,
  phone: Phone,
  blob: Blob,
): Promise<void> {
  try {
    await options.send(phone.code, blob);
    holder.phone = { ...phone, state: 'sent', problem: '' };
  } catch (error) {
    holder.phone = {
      ...phone,
      state: 'refused',
      problem: options.texts().errorMessage(error instanceof ProxyCallError ? error.code : 'generic'),
    };
  }
  options.focusStep();
}
