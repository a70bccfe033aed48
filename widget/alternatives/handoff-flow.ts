// What "Use your phone" does, in the chunk loaded when the shopper asks for it (alternatives.ts).
// On the computer: a code from the proxy, its QR code, the time left, and a watch until the
// phone's photo has come; then the number the phone shows is typed here, and only then is the
// photo given and tried on at once. On the phone: the photo sent to that code, and the number to
// type. The state lives in the dialog's PhoneHandoff.
import { ProxyCallError } from '../api/proxy-client.js';
import type { HandoffState } from '../api/proxy-client.js';
import type { TryonRun } from '../run/tryon-run.js';
import type { DialogContext } from '../core/dialog-context.js';
import { phoneAddress, qrCode, spacedCode, timeLeft } from './handoff.js';
import { watchHandoff } from './handoff-watch.js';

/**
 * The computer's hand-off on screen: `confirming` once the phone's photo came (the number asked
 * for, `checking` while one is sent), `ended` when wrong numbers used up every try.
 */
export interface Desk {
  state: 'starting' | 'waiting' | 'confirming' | 'expired' | 'ended' | 'failed';
  code?: string;
  expiresAt?: number;
  qr?: string;
  problem: string;
  /** The handle, for confirming. */
  handoff?: string;
  checking?: boolean;
}

/** On the phone: the code, how sending the photo went, and the number to type on the computer. */
export interface Phone {
  code: string;
  state: 'ready' | 'sending' | 'sent' | 'refused';
  problem: string;
  number?: string;
}

/**
 * What the hand-off reads of the dialog's context: the run, whose proxy client it asks, which tries
 * the phone's photo on (`useHandoffPhoto`) and which sends it from the phone (`sendToComputer`).
 */
export interface HandoffContext extends DialogContext {
  readonly run: TryonRun;
}

/** What the hand-off's state is kept on (the dialog's PhoneHandoff controller). */
interface DeskHolder {
  desk: Desk | undefined;
  end(): void;
}

/** The desktop's hand-off under way: its end, and the one way a typed number goes to the proxy. */
export interface RunningDesk {
  end(): void;
  confirm(typed: string): Promise<void>;
}

/**
 * Until when the desktop counts on a photo given by a hand-off: the hand-off answer does not say
 * when the photo's handle ends, so the code's own end is taken (a photo outlives its code by the
 * proxy's photo lifetime, an hour by default); past it, "Try this colour" asks for a photo again.
 */
const handoffPhotoExpiry = (codeExpiresAt: number): string => new Date(codeExpiresAt).toISOString();

/** A number as typed ("123 456") as the proxy takes it; undefined when it cannot be the phone's 6 digits. */
export function typedNumber(typed: string): string | undefined {
  const number = typed.replace(/[\s-]/g, '');
  return /^[0-9]{6}$/.test(number) ? number : undefined;
}

/** The number as the phone shows it: two groups of three, easier to read out and type. */
export const spacedNumber = (number: string): string =>
  number.length === 6 ? `${number.slice(0, 3)} ${number.slice(3)}` : number;

/** Starts a hand-off on the computer; `end()` stops its watch and countdown. */
export function startDesk(holder: DeskHolder, context: HandoffContext): RunningDesk {
  const watch = new AbortController();
  let tick: ReturnType<typeof setInterval> | undefined;
  const stopTimers = () => clearInterval(tick);
  const current = () => !watch.signal.aborted;
  let given = false;
  let codeEnds = 0;
  /** The photo is the desktop's (the right number, here or in another tab): tried on at once, once. */
  const give = (photo: string) => {
    if (given || !current()) return;
    given = true;
    holder.end();
    holder.desk = undefined;
    // Tried on at once; confirmed after the code's end is still within the photo's own, longer life.
    context.announce(context.texts.t('handoffReceived'));
    context.run.useHandoffPhoto(photo, handoffPhotoExpiry(Math.max(codeEnds, Date.now())));
  };
  const ended = (desk: Desk) => {
    stopTimers();
    holder.desk = desk;
    const texts = context.texts;
    const said = { ended: texts.errorMessage('handoff_tries_used'), expired: texts.t('handoffExpired') } as Partial<
      Record<Desk['state'], string>
    >;
    context.announce(said[desk.state] ?? desk.problem);
    context.focusStep();
  };
  const running: RunningDesk = {
    end() {
      watch.abort();
      stopTimers();
    },
    async confirm(typed: string) {
      const desk = holder.desk;
      if (!desk || desk.state !== 'confirming' || desk.checking || !desk.handoff) return;
      const texts = context.texts;
      const number = typedNumber(typed);
      // Not 6 digits: wrong, as the shopper sees it, but sent nowhere and no try taken.
      if (!number) {
        holder.desk = { ...desk, problem: texts.errorMessage('handoff_wrong_number') };
        context.announce(texts.errorMessage('handoff_wrong_number'));
        return;
      }
      holder.desk = { ...desk, checking: true, problem: '' };
      const proxy = context.run.client().watched;
      const path = `handoffs/${encodeURIComponent(desk.handoff)}`;
      try {
        const state = await proxy.send<HandoffState>(`${path}/confirm`, { number }, watch.signal);
        if (state.status === 'received' && state.photo) give(state.photo);
      } catch (error) {
        if (!current()) return;
        const code = error instanceof ProxyCallError ? error.code : 'generic';
        if (code === 'handoff_tries_used') return ended({ ...desk, state: 'ended', checking: false, problem: '' });
        if (code === 'handoff_expired') return ended({ ...desk, state: 'expired', checking: false, problem: '' });
        // The tries left, as the hand-off now reads (the panel's error type carries no more than a code).
        const left =
          code === 'handoff_wrong_number'
            ? await proxy.read<HandoffState>(path, watch.signal).then(
                (state) => state.triesLeft,
                () => undefined,
              )
            : undefined;
        if (!current()) return;
        const problem =
          left === undefined
            ? texts.errorMessage(code)
            : `${texts.errorMessage(code)} ${texts.t('handoffWrongNumber', { count: String(left) })}`;
        holder.desk = { ...(holder.desk ?? desk), checking: false, problem };
        context.announce(problem);
      }
    },
  };
  holder.desk = { state: 'starting', problem: '' };
  context.focusStep();
  const client = context.run.client();
  void (async () => {
    try {
      // The product's id as the proxy knows it, and the variant chosen on the page.
      const product = context.run.product?.product || context.host.product;
      const started = await client.startHandoff(product, context.run.chosenVariant || undefined, watch.signal);
      const expiresAt = Date.parse(started.expiresAt);
      codeEnds = expiresAt;
      holder.desk = {
        state: 'waiting',
        code: spacedCode(started.code),
        expiresAt,
        problem: '',
        handoff: started.handoff,
      };
      tick = setInterval(() => {
        const desk = holder.desk;
        // Set even when unchanged: the dialog renders the time left again.
        holder.desk =
          (desk?.state === 'waiting' || desk?.state === 'confirming') && Date.now() >= (desk.expiresAt ?? 0)
            ? { ...desk, state: 'expired' }
            : desk;
      }, 1000);
      void qrCode(phoneAddress(started.code))
        .then((qr) => {
          if (current() && holder.desk) holder.desk = { ...holder.desk, qr };
        })
        .catch(() => {
          // Without its QR code the code in letters still works: said, not hidden.
          if (current() && holder.desk) holder.desk = { ...holder.desk, problem: context.texts.t('error_generic') };
        });
      const onState = (state: HandoffState) => {
        const desk = holder.desk;
        if (!current() || state.status !== 'confirming' || !desk || desk.state !== 'waiting') return;
        // The phone's photo came: the number it shows is asked for here, in the number's own time.
        const expires = Date.parse(state.expiresAt);
        holder.desk = { ...desk, state: 'confirming', expiresAt: expires, problem: '' };
        context.announce(context.texts.t('handoffConfirming', { time: timeLeft(expires, Date.now()) }));
        context.focusStep();
      };
      const final = await watchHandoff(client.watched, started.handoff, onState, watch.signal);
      if (!current() || given) return;
      if (final.status === 'received' && final.photo) give(final.photo);
      else if (holder.desk?.state !== 'ended') ended({ ...holder.desk!, state: 'expired', checking: false });
    } catch (error) {
      if (!current()) return;
      stopTimers();
      holder.desk = {
        state: 'failed',
        problem: context.texts.errorMessage(error instanceof ProxyCallError ? error.code : 'generic'),
      };
      context.focusStep();
    }
  })();
  return running;
}

/** On the phone: sends the photo to the computer's hand-off (`phone`'s code) and says how it went. */
export async function sendFromPhone(
  holder: { phone: Phone | undefined },
  context: HandoffContext,
  phone: Phone,
  blob: Blob,
): Promise<void> {
  try {
    // Uploaded to the computer's hand-off with the consent given here; the answer holds the number to type there.
    const { confirmation } = await context.run.sendToComputer(phone.code, blob);
    // A proxy from before pairing answers no number: said as an error, never as "sent".
    if (!confirmation) throw new ProxyCallError('bad_answer', { retryable: false });
    holder.phone = { ...phone, state: 'sent', problem: '', number: confirmation };
  } catch (error) {
    holder.phone = {
      ...phone,
      state: 'refused',
      problem: context.texts.errorMessage(error instanceof ProxyCallError ? error.code : 'generic'),
    };
  }
  // The photo step is gone, and what the live region said of it (the photo check's verdict) with
  // it: the session's status stays "photo" on the phone, so nothing else would clear it.
  context.announce('');
  context.focusStep();
}
