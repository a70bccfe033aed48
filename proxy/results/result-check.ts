// What happens to a try-on's result before any shopper sees it: checked against the product's
// garment (`fidelity/check.ts`), and, where the catalog says `onDiffers: "rerender"`, the views
// that differ rendered once more at the shop's cost. The status board (tryons/status-board.ts)
// calls it when upstream says a try-on succeeded, and writes `succeeded` only with what it answers:
// check before succeeded, so no shopper ever sees a succeeded result whose check has not run.
//
// Once per try-on in a process: a caller that finds the result done while its check runs (a poll
// whose right ran out meanwhile, a webhook crossing it) waits for that check (the board's). Across
// instances the poll right makes one instance at a time read a try-on, but two may still check
// (a slow check outlives the right): their verdicts may differ (one past its CPU budget), so the
// store's one finishing write decides, every instance answers what it stored, and only that write
// counts (finished(): the log line, the usage book).
//
// A rerender is one new try-on of the differing views, charged like any: reserved in the spend
// ledger (daily try-ons and credits, the photo's and the client's caps) under an idempotency key
// made from the try-on's own, so every instance and every retry makes the same reservation (a
// second one is a `retry` and counts nothing) and upstream, given the same key, starts one job.
// The photo's forget fence is asked first, as for any submit: a forgotten photo is never used again.
import { DIFFERS_ABOVE, WORN_OVER, checkFidelity, type Fidelity } from '../fidelity/check.js';
import { fidelityOf, productAsVariant, type ProductEntry, type VariantEntry } from '../catalog/catalog.js';
import type { GarmentFiles } from '../catalog/garment-files.js';
import { creditsFor, type PriceTable } from '../money/prices.js';
import type { SpendLedger } from '../money/spend-ledger.js';
import type { UsageBook } from '../money/usage-book.js';
import type { PhotoRevocations } from '../photos/revocations.js';
import type { ProxyLimits } from '../limits/limits.js';
import type { Log } from '../operator/log.js';
import { noMetrics, type ProxyMetrics } from '../operator/metrics.js';
import type { Upstream, UpstreamOutput } from '../upstream/client.js';
import { upstreamStartedNothing } from '../upstream/transport.js';
import type { ResultCheck } from '../tryons/status-board.js';
import type { TryonFidelity, TryonRerender, TryonSnapshot } from '../tryons/snapshot.js';
import type { StatusRecord, TryonPlan } from '../tryons/status-store.js';
import { productImageOf, tryonRequestBody } from '../tryons/upstream-body.js';
import { downBoundMs } from '../tryons/give-up.js';
import type { View } from '../catalog/schema.js';

export interface ResultCheckOptions {
  upstream: Upstream;
  garmentFiles: Pick<GarmentFiles, 'picture' | 'fileId'>;
  findProduct: (id: string) => Promise<ProductEntry | undefined>;
  spend: SpendLedger;
  usage: UsageBook;
  revocations: Pick<PhotoRevocations, 'beginSubmit' | 'endSubmit'>;
  prices: PriceTable;
  idempotencyKey: (parts: string[]) => Promise<string>;
  limits: Pick<
    ProxyLimits,
    | 'fidelityCpuMs'
    | 'uploadBytes'
    | 'tryonTtlSeconds'
    | 'upstreamTimeoutMs'
    | 'upstreamStuckPercent'
    | 'retries'
    | 'retryBaseMs'
  >;
  log: Log;
  now: () => number;
  metrics?: ProxyMetrics;
}

const unchecked = (reason: string, views: TryonFidelity['views'] = []): TryonFidelity => ({
  verdict: 'unchecked',
  views,
  reason,
});

/** An output's bytes, read whole up to `most` (a larger one is not checked); null when it cannot be read. */
async function outputBytes(
  upstream: Upstream,
  output: UpstreamOutput,
  most: number,
): Promise<{ bytes: Uint8Array | null; contentType: string }> {
  const fallbackType = output.contentType ?? 'image/jpeg';
  try {
    const response = await upstream.fileContent(output.fileId);
    const contentType = response.headers.get('content-type')?.split(';')[0]?.trim() || fallbackType;
    const declared = Number(response.headers.get('content-length') ?? '0');
    if (declared > most) {
      await response.body?.cancel();
      return { bytes: null, contentType };
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { bytes: bytes.length > most ? null : bytes, contentType };
  } catch {
    return { bytes: null, contentType: fallbackType };
  }
}

/** The views to render again: each whose garment is not all there or whose colour is off; all when none stands out. */
export function viewsToRerender(fidelity: TryonFidelity, asked: string[]): string[] {
  const differing = fidelity.views
    .filter((v) => v.coverage !== 'ok' || v.colour.deltaE > DIFFERS_ABOVE)
    .map((v) => v.view)
    .filter((view) => asked.includes(view));
  return differing.length > 0 ? asked.filter((view) => differing.includes(view)) : [...asked];
}

export class ResultChecks implements ResultCheck {
  private readonly metrics: ProxyMetrics;

  constructor(private readonly options: ResultCheckOptions) {
    this.metrics = options.metrics ?? noMetrics;
  }

  async checked(jobId: string, record: StatusRecord | undefined, snapshot: TryonSnapshot): Promise<TryonSnapshot> {
    const plan = record?.plan;
    // A first look, or a try-on seeded before this proxy checked results: nothing claimed.
    if (!plan) return { ...snapshot, fidelity: unchecked('no_plan') };
    const product = await this.productOf(plan);
    if (!product) return { ...snapshot, fidelity: unchecked('product_gone') };
    const settings = product.fidelity ?? fidelityOf();
    if (!settings.check) return { ...snapshot, fidelity: unchecked('check_off') };
    // A piece over an earlier result shows that result's garment too, and a piece worn over another
    // garment cannot be told from it: nothing the check could claim (WORN_OVER), so its outputs and
    // garment picture are not even fetched.
    if (plan.over || WORN_OVER.includes(product.garment.category.toLowerCase()))
      return { ...snapshot, fidelity: unchecked('worn_over') };
    const fidelity = await this.check(jobId, plan, product, snapshot.outputs);
    if (fidelity.verdict !== 'differs' || settings.onDiffers !== 'rerender') return { ...snapshot, fidelity };
    return this.startRerender(plan, product, snapshot, fidelity, settings.rerenderProvider);
  }

  async rerendering(jobId: string, record: StatusRecord, rerender: TryonRerender): Promise<TryonSnapshot> {
    const now = this.options.now();
    const { upstream } = this.options;
    const failed = (reason: string): TryonSnapshot => {
      this.options.log({ level: 'warn', event: 'rerender_failed', reason, product: record.plan?.product });
      return {
        status: 'succeeded',
        outputs: rerender.first.outputs,
        at: now,
        fidelity: { ...rerender.first.fidelity, rerender: 'failed' },
        rerender: { ...rerender, failed: reason },
      };
    };
    let outputs: UpstreamOutput[];
    try {
      const job = await upstream.getJob(rerender.jobId);
      if (job.status === 'failed') return failed('render_failed');
      if (job.status !== 'succeeded') {
        // Kept unfinished far past its tier's time, as a try-on would be given up on (give-up.ts): the first result stands.
        if (now - rerender.startedAt > downBoundMs(record.tier, this.options.limits.upstreamStuckPercent))
          return failed('rerender_stuck');
        return { ...record.snapshot, at: now };
      }
      outputs = await upstream.listOutputs(rerender.jobId);
    } catch (error) {
      return failed((error as { code?: string }).code ?? 'upstream_error');
    }
    // Succeeded with nothing listed yet: still rendering, as snapshotOf() has it.
    const fresh = outputs.filter((o) => rerender.views.includes(o.view));
    if (fresh.length === 0) return { ...record.snapshot, at: now };
    const merged = [...rerender.first.outputs.filter((o) => !rerender.views.includes(o.view)), ...fresh];
    const plan = record.plan!;
    const product = await this.productOf(plan);
    const fidelity = product ? await this.check(jobId, plan, product, merged) : unchecked('product_gone');
    return { status: 'succeeded', outputs: merged, at: now, fidelity: { ...fidelity, rerender: 'done' }, rerender };
  }

  async finished(jobId: string, record: StatusRecord): Promise<void> {
    const { plan, snapshot } = record;
    const fidelity = snapshot.fidelity;
    if (!plan || !fidelity) return;
    this.options.log({
      event: 'tryon_fidelity',
      product: plan.product,
      ...(plan.variant === undefined ? {} : { variant: plan.variant }),
      verdict: fidelity.verdict,
      views: fidelity.views.map((v) => ({ view: v.view, deltaE: v.colour.deltaE, coverage: v.coverage })),
      ...(fidelity.rerender ? { rerender: fidelity.rerender } : {}),
      ...(fidelity.reason ? { reason: fidelity.reason } : {}),
    });
    if (fidelity.verdict !== 'unchecked') {
      const worst = Math.max(0, ...fidelity.views.map((v) => v.colour.deltaE));
      await this.options.usage.fidelityChecked(plan.product, fidelity.verdict, worst);
    }
    // A rerender upstream failed gives its credits back, as any failed job's; one given up on may
    // still finish there and be charged, so its credits stay counted.
    if (fidelity.rerender === 'failed' && snapshot.rerender?.failed === 'render_failed') {
      await this.options.usage.jobFailed(snapshot.rerender.jobId, 'rerender_failed');
    }
  }

  private async productOf(plan: TryonPlan): Promise<VariantEntry | undefined> {
    const listed = await this.options.findProduct(plan.product).catch(() => undefined);
    return listed ? productAsVariant(listed, plan.variant) : undefined;
  }

  /** The check of these outputs against the product's garment; whatever fails on the way is `unchecked`, with why. */
  private async check(
    jobId: string,
    plan: TryonPlan,
    product: VariantEntry,
    outputs: UpstreamOutput[],
  ): Promise<TryonFidelity> {
    if (plan.output !== 'image') return unchecked('video');
    const { garmentFiles, upstream, limits, log } = this.options;
    let garment: { bytes: Uint8Array; contentType: string };
    try {
      garment = await garmentFiles.picture(productImageOf(product).path);
    } catch {
      return unchecked('garment_unreadable');
    }
    const images = outputs.filter((o) => o.type === 'image');
    const views = await Promise.all(
      images.map(async (output) => ({
        view: output.view,
        ...(await outputBytes(upstream, output, limits.uploadBytes)),
      })),
    );
    let result: Fidelity;
    try {
      result = await checkFidelity({
        garment,
        category: product.garment.category,
        views,
        expectedViews: plan.views,
        cpuBudgetMs: limits.fidelityCpuMs,
      });
    } catch (error) {
      log({ level: 'warn', event: 'fidelity_check_failed', jobId, message: (error as Error).message });
      return unchecked('check_failed');
    }
    return {
      verdict: result.verdict,
      views: result.views.map(({ view, colour, coverage }) => ({ view, colour: { deltaE: colour.deltaE }, coverage })),
      ...(result.reason ? { reason: result.reason } : {}),
    };
  }

  /**
   * One rerender of the differing views, or, when it cannot be started (the photo forgotten, a
   * limit reached, upstream refusing), the first result with its `differs` label and `rerender: "failed"`.
   */
  private async startRerender(
    plan: TryonPlan,
    product: VariantEntry,
    snapshot: TryonSnapshot,
    fidelity: TryonFidelity,
    provider: string | undefined,
  ): Promise<TryonSnapshot> {
    const { spend, revocations, upstream, garmentFiles, usage, log, limits, now } = this.options;
    const failed = (reason: string): TryonSnapshot => {
      log({ level: 'warn', event: 'rerender_failed', reason, product: plan.product });
      return { ...snapshot, fidelity: { ...fidelity, rerender: 'failed' } };
    };
    const views = viewsToRerender(fidelity, plan.views);
    const rendered = { ...product, ...(provider ? { provider } : {}) };
    const credits = creditsFor(this.options.prices, rendered.tier, 'image', views.length);
    const key = await this.options.idempotencyKey([plan.key, 'rerender', views.join(',')]);
    const reservation = await spend.reserve({
      key,
      photoId: plan.photoId,
      client: plan.client,
      credits,
      keepUntil: Math.max(plan.keepUntil, now() + limits.tryonTtlSeconds * 1000),
    });
    if (!reservation.granted) return failed(reservation.refusal);
    let mayHaveStarted = false;
    let job;
    // The photo may have been forgotten since: asked as the submit is let out, as for any submit.
    const windowMs = limits.upstreamTimeoutMs * (1 + limits.retries) + limits.retryBaseMs * 2 ** limits.retries + 5_000;
    const ticket = await revocations.beginSubmit(plan.photoId, windowMs);
    if (!ticket) {
      await spend.settle(key, 'refused');
      return failed('photo_forgotten');
    }
    try {
      const image = productImageOf(rendered);
      const productFileId = await garmentFiles.fileId(image.path, image.kind);
      job = await upstream.submitTryon(
        'image',
        tryonRequestBody({
          product: rendered,
          personFileId: plan.personFileId,
          productFileId,
          views: views as View[],
          output: 'image',
          idempotencyKey: key,
        }),
      );
    } catch (error) {
      if (!upstreamStartedNothing(error)) mayHaveStarted = true;
      await spend.settle(key, mayHaveStarted ? 'unknown' : 'refused');
      return failed((error as { code?: string }).code ?? 'submit_failed');
    } finally {
      await revocations.endSubmit(plan.photoId, ticket).catch(() => undefined);
    }
    await spend.settle(key, 'accepted');
    if (!reservation.retry) {
      this.metrics.tryonStarted(plan.product, rendered.tier, credits);
      await usage
        .rerenderStarted(job.id, plan.product, credits, limits.tryonTtlSeconds * 1000)
        .catch((error: Error) => log({ level: 'warn', event: 'usage_unwritten', message: error.message }));
    }
    log({ event: 'rerender_started', product: plan.product, views, retry: reservation.retry });
    return {
      status: 'processing',
      // The views that held stay shown; the differing ones wait for their rerender.
      outputs: snapshot.outputs.filter((o) => !views.includes(o.view)),
      at: now(),
      fidelity: { ...fidelity, rerender: 'running' },
      rerender: { jobId: job.id, startedAt: now(), views, first: { outputs: snapshot.outputs, fidelity } },
    };
  }
}
