// Faults a test injects through `/sandbox/faults` (docs/sandbox.md): an error status or a delay for
// the next calls matching a route, a job that fails, vanishes mid-render or is held until released,
// or a job whose outputs show the failures try-on models show in the field (a colour drift, the
// wrong variant, the garment missing or half drawn), for the whole job or one view. They let the
// proxy's retries, timeouts, failure answers and fidelity check be tested against a real server, not a mock.
import { z } from 'zod';
import { newId } from '../api/ids.js';
import { views } from '../api/tryon-request.js';
import type { JobOutcome } from './job.js';
import type { Misdraw } from './misdrawn.js';

/** A colour drift's strength when the fault names none: plainly visible, as the field's drifts are. */
export const DEFAULT_DRIFT = 12;

const times = z.number().int().min(1).max(1000).default(1);
const match = z
  .string()
  .regex(
    /^(\*|GET|POST|PUT|PATCH|DELETE) \/\S*$/,
    'must look like "POST /v1/images/tryon" (`*` matches one path segment)',
  );

export const faultSchema = z.union([
  z.strictObject({
    match,
    status: z.number().int().min(400).max(599),
    times,
    code: z
      .string()
      .regex(/^[a-z0-9_]+$/)
      .optional(),
    message: z.string().max(300).optional(),
  }),
  z.strictObject({ match, delayMs: z.number().int().min(0).max(120_000), times }),
  z.strictObject({ jobOutcome: z.enum(['failed', 'hold', 'vanish']), times }),
  // A drift's strength is the CIEDE2000 difference between the garment's colours and the drifted ones.
  z.strictObject({
    jobOutcome: z.literal('colour_drift'),
    deltaE: z.number().min(0.5).max(60).default(DEFAULT_DRIFT),
    view: z.enum(views).optional(),
    times,
  }),
  z.strictObject({
    jobOutcome: z.enum(['wrong_variant', 'garment_missing', 'half_drawn']),
    view: z.enum(views).optional(),
    times,
  }),
]);
export type FaultInput = z.infer<typeof faultSchema>;
export type Fault = FaultInput & { id: string; remaining: number };

const codeForStatus: Record<number, string> = {
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};
export const faultCode = (fault: { status: number; code?: string | undefined }) =>
  fault.code ?? codeForStatus[fault.status] ?? 'injected_fault';

function matches(pattern: string, method: string, path: string): boolean {
  const [wantMethod = '', wantPath = ''] = pattern.split(' ');
  if (wantMethod !== '*' && wantMethod !== method) return false;
  const want = wantPath.split('/');
  const got = path.replace(/\/+$/, '').split('/');
  return want.length === got.length && want.every((segment, i) => segment === '*' || segment === got[i]);
}

/** Failures a test asks for: answers, delays and job outcomes, each for a number of times. */
export class Faults {
  #active: Fault[] = [];

  add(input: FaultInput): Fault {
    const fault: Fault = { ...input, id: newId('fault'), remaining: input.times };
    this.#active.push(fault);
    return fault;
  }

  list(): Fault[] {
    return [...this.#active];
  }

  clear(): void {
    this.#active = [];
  }

  #consume(fault: Fault): void {
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.#active = this.#active.filter((f) => f !== fault);
  }

  /** The first request fault that matches, used up by one. */
  takeRequestFault(method: string, path: string): Extract<Fault, { match: string }> | undefined {
    for (const fault of this.#active) {
      if ('match' in fault && matches(fault.match, method, path)) {
        this.#consume(fault);
        return fault;
      }
    }
    return undefined;
  }

  /** How the next created job ends, and what its outputs show wrongly (a fault drawn into them). */
  takeJobOutcome(): { outcome: JobOutcome; misdraw?: Misdraw } {
    for (const fault of this.#active) {
      if ('jobOutcome' in fault) {
        this.#consume(fault);
        if (fault.jobOutcome === 'failed' || fault.jobOutcome === 'hold' || fault.jobOutcome === 'vanish')
          return { outcome: fault.jobOutcome };
        const misdraw: Misdraw = {
          kind: fault.jobOutcome,
          ...('deltaE' in fault ? { deltaE: fault.deltaE } : {}),
          ...('view' in fault && fault.view ? { view: fault.view } : {}),
        };
        return { outcome: 'normal', misdraw };
      }
    }
    return { outcome: 'normal' };
  }
}
