// Budget alerts: one signed POST to TRYON_BUDGET_ALERT_URL when 80 % and when 100 % of a day's
// budget (try-ons or credits, whichever is further along) is spent. Once per threshold per UTC day
// across every instance: the usage book in the store decides who sends (usage-book.ts claimAlert).
// Signed as Standard Webhooks are (the `standardwebhooks` library, as upstream's events are
// checked): headers webhook-id (`budget_<day>_<threshold>`, the same on a resend, so a receiver can
// drop a duplicate), webhook-timestamp and webhook-signature, secret TRYON_BUDGET_ALERT_SECRET.
// The shopper never waits for it: the POST runs after the answer (waitUntil on Workers), and a
// failed delivery is retried twice, then logged; it is not sent again that day.
import { Webhook } from 'standardwebhooks';
import type { Log } from '../operator/log.js';
import type { SpendLedger, SpendLimits } from './spend-ledger.js';
import type { UsageBook } from './usage-book.js';

export const ALERT_THRESHOLDS = [80, 100] as const;

export interface BudgetAlertOptions {
  /** Where the alerts go: https (http only to loopback outside production; config.ts checks it at start). */
  url: string;
  /** Standard Webhooks secret, `whsec_<base64>`. */
  secret: string;
}

/** The body of one alert (docs/proxy.md, "Budget alerts"). */
export interface BudgetAlertBody {
  type: 'budget.threshold';
  timestamp: string;
  data: {
    date: string;
    threshold: 80 | 100;
    tryons: number;
    credits: number;
    dailyTryons: number | null;
    dailyCredits: number | null;
  };
}

/** The share of the day's budget spent, 0..1 (and 1 once a try-on was refused for the budget). */
export function spentShare(
  tryons: number,
  credits: number,
  limits: Pick<SpendLimits, 'dailyTryons' | 'dailyCredits'>,
): number {
  const share = (used: number, limit: number) => (Number.isFinite(limit) && limit > 0 ? used / limit : 0);
  return Math.max(share(tryons, limits.dailyTryons), share(credits, limits.dailyCredits));
}

export class BudgetAlerts {
  private readonly webhook: Webhook;

  constructor(
    private readonly options: BudgetAlertOptions & {
      ledger: SpendLedger;
      book: UsageBook;
      limits: Pick<SpendLimits, 'dailyTryons' | 'dailyCredits'>;
      log: Log;
      now: () => number;
      fetch?: typeof fetch;
      /** Pause between delivery attempts (tests: 0). */
      retryMs?: number;
    },
  ) {
    this.webhook = new Webhook(options.secret);
  }

  /**
   * After a try-on was reserved (or refused for the day's budget: `exhausted`): sends each
   * threshold now reached that no instance has sent today. Resolves when the sends are done.
   */
  async check(exhausted = false): Promise<void> {
    const usage = await this.options.ledger.usage();
    const share = exhausted
      ? Math.max(1, spentShare(usage.tryons, usage.credits, this.options.limits))
      : spentShare(usage.tryons, usage.credits, this.options.limits);
    for (const threshold of ALERT_THRESHOLDS) {
      if (share * 100 < threshold) continue;
      if (!(await this.options.book.claimAlert(usage.day, threshold))) continue;
      await this.send({
        type: 'budget.threshold',
        timestamp: new Date(this.options.now()).toISOString(),
        data: {
          date: usage.day,
          threshold,
          tryons: usage.tryons,
          credits: usage.credits,
          dailyTryons: Number.isFinite(this.options.limits.dailyTryons) ? this.options.limits.dailyTryons : null,
          dailyCredits: Number.isFinite(this.options.limits.dailyCredits) ? this.options.limits.dailyCredits : null,
        },
      });
    }
  }

  private async send(body: BudgetAlertBody): Promise<void> {
    const id = `budget_${body.data.date}_${body.data.threshold}`;
    const payload = JSON.stringify(body);
    const doFetch = this.options.fetch ?? fetch;
    let problem = '';
    for (let attempt = 0; attempt < 3; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, (this.options.retryMs ?? 1000) * attempt));
      const at = new Date(this.options.now());
      try {
        const response = await doFetch(this.options.url, {
          method: 'POST',
          redirect: 'manual',
          signal: AbortSignal.timeout(10_000),
          headers: {
            'content-type': 'application/json',
            'webhook-id': id,
            'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
            'webhook-signature': this.webhook.sign(id, at, payload),
          },
          body: payload,
        });
        await response.body?.cancel();
        if (response.ok) {
          this.options.log({
            level: 'info',
            event: 'budget_alert_sent',
            threshold: body.data.threshold,
            date: body.data.date,
          });
          return;
        }
        problem = `HTTP ${response.status}`;
      } catch (error) {
        problem = (error as Error).message;
      }
    }
    this.options.log({
      level: 'error',
      event: 'budget_alert_failed',
      threshold: body.data.threshold,
      date: body.data.date,
      problem,
    });
  }
}
