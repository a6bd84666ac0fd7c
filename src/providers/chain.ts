import { CALL_KINDS, PAYER_KINDS, type CallKind, type Payer, type PayerKind } from '../domain/payer.ts';
import { AllowanceRefused } from '../domain/failures.ts';
import { Circuit, type CircuitOptions, type Ticket } from './circuit.ts';
import { DEFAULT_DEADLINE_MS, Deadline } from './deadline.ts';
import type { ChainFailure, ChainOutcome, Failure } from './failure.ts';
import {
  ProviderError,
  type CallOptions,
  type Capability,
  type FailureKind,
  type Provider,
  type ProviderOperationHealth,
} from './types.ts';

export interface ChainOptions {
  /** Breaker settings per provider and capability; `false` turns the breaker off. Default: 5 failures, 30 s. */
  circuit?: Omit<CircuitOptions, 'now'> | false;
  /** Time budget of one read across providers and retries (default DEFAULT_DEADLINE_MS). */
  deadlineMs?: number;
  now?: () => number;
}

export interface RunOptions {
  /** Restrict the run to one named provider, e.g. to continue with the provider that issued a cursor. */
  only?: string;
  /** The caller's signal: once aborted, the abort is re-thrown instead of trying further providers. */
  signal?: AbortSignal;
  /** A budget shared with other runs of the same read (e.g. a conversation and its single-post fallback). */
  deadline?: Deadline;
  /** Charges the requesting client one session-backed call (handed to providers as `chargeSession`). */
  chargeSession?: () => Promise<void>;
  /** Who the run's upstream calls are made for: each call is charged to them before it is made, and counted. */
  payer: Payer;
  /** What the calls are for, which decides the allowance they are charged to. */
  call: CallKind;
}

/** Upstream calls the chain made, by who they were charged to and what they were for. */
export type CallCounts = Record<PayerKind, Record<CallKind, number>>;

/** One provider's line in GET /api, /readyz and metrics. */
export interface ProviderHealth {
  name: string;
  capabilities: Capability[];
  successes: number;
  failures: number;
  lastFailure?: { kind: FailureKind; at: string };
  /** The provider's worst capability breaker: open if any is open, else half-open if any is, else closed. */
  breaker: 'closed' | 'open' | 'half-open' | 'off';
  /** Breaker state of each capability that has had a call (the others are closed). */
  breakers: Partial<Record<Capability, 'closed' | 'open' | 'half-open'>>;
  /** Account-backed providers: per upstream operation. */
  operations?: Record<string, ProviderOperationHealth>;
}

/**
 * Tries the providers that declare a capability, in configured order, and returns the first answer, or a typed
 * failure (domain/failures.ts) that the sources reject with (src/sources/served.ts) and the edge maps to a problem.
 *
 * - `not_found` from any provider is a positive answer ("deleted, protected or missing"): it stops the
 *   chain (`gone`).
 * - `unconfirmed` ("not found" from a provider that says so on its own failures too) falls through; when
 *   every tried provider answered that way the run ends `unconfirmed`. The next provider is told it is only
 *   `confirming` (CallOptions), so a session-backed one may decline with `unconfirmed` rather than spend a session.
 * - `error`, `empty`, `network` and `unavailable` fall through to the next provider; when every one failed the
 *   run ends `failed`, with each provider's failure.
 * - No capable provider at all: `no_provider`.
 * - Providers whose circuit is open are skipped (one half-open trial at a time); when all are skipped the
 *   read fails at once with their last failure kinds. There is one circuit per provider and capability, so
 *   failing searches never switch off a provider's post reads.
 * - An upstream 4xx other than 429 is about the request (a bogus id, a query it refuses), not the provider's
 *   health: the chain falls through as usual but the breaker does not count it, or anyone could open it.
 * Aborts, and a charge the caller's allowance refused (AllowanceRefused) thrown by `call`, are re-thrown as they are.
 */
export class ProviderChain {
  private readonly circuits = new Map<string, Circuit>();
  private readonly circuitOptions: CircuitOptions | undefined;
  private readonly counts = new Map<
    string,
    { successes: number; failures: number; lastFailure?: { kind: FailureKind; at: string } }
  >();
  private readonly deadlineMs: number;
  private readonly now: () => number;
  private readonly callCounts: CallCounts = Object.fromEntries(
    PAYER_KINDS.map((p) => [p, Object.fromEntries(CALL_KINDS.map((c) => [c, 0]))]),
  ) as CallCounts;

  constructor(
    readonly providers: Provider[],
    opts: ChainOptions = {},
  ) {
    this.deadlineMs = opts.deadlineMs ?? DEFAULT_DEADLINE_MS;
    this.now = opts.now ?? Date.now;
    const circuit = opts.circuit ?? { threshold: 5, cooldownMs: 30_000 };
    this.circuitOptions = circuit ? { ...circuit, now: opts.now } : undefined;
  }

  /** The breaker of one provider's capability, made on first use; undefined when breakers are off. */
  private circuitOf(provider: string, capability: Capability): Circuit | undefined {
    if (!this.circuitOptions) return undefined;
    const id = `${provider}/${capability}`;
    let c = this.circuits.get(id);
    if (!c) this.circuits.set(id, (c = new Circuit(this.circuitOptions)));
    return c;
  }

  private breakersOf(p: Provider): ProviderHealth['breakers'] {
    const out: ProviderHealth['breakers'] = {};
    for (const cap of p.capabilities()) {
      const c = this.circuits.get(`${p.name}/${cap}`);
      if (c) out[cap] = c.state;
    }
    return out;
  }

  /** Per-provider counters and breaker state, for GET /api, /readyz and metrics. */
  health(): ProviderHealth[] {
    return this.providers.map((p) => {
      const c = this.countsOf(p.name);
      const breakers = this.breakersOf(p);
      const states = Object.values(breakers);
      const worst = states.includes('open') ? 'open' : states.includes('half-open') ? 'half-open' : 'closed';
      return {
        name: p.name,
        capabilities: [...p.capabilities()],
        successes: c.successes,
        failures: c.failures,
        ...(c.lastFailure ? { lastFailure: c.lastFailure } : {}),
        breaker: this.circuitOptions ? worst : 'off',
        breakers,
        ...(p.operationHealth ? { operations: p.operationHealth() } : {}),
      };
    });
  }

  /**
   * The one place an upstream call is charged: each request a provider's transport sends for a run is charged to
   * the run's payer, for its kind, before it goes out, and counted by who paid. A refusal (AllowanceRefused) ends
   * the run as the caller's own, like any refusal a call throws. Also the charge of upstream calls made outside a
   * run (a media file fetched from X's media hosts: `chargeFor(payer, 'media')`), so they are counted alike.
   */
  chargeFor(payer: Payer, call: CallKind): () => void | Promise<void> {
    return () => {
      const paid = payer.charge(call);
      if (typeof paid === 'string') {
        this.callCounts[paid][call]++;
        return;
      }
      return paid.then((kind) => {
        this.callCounts[kind][call]++;
      });
    };
  }

  /** Upstream calls made so far by payer and purpose, for metrics (every call has a payer: `RunOptions.payer`). */
  calls(): CallCounts {
    return this.callCounts;
  }

  private countsOf(name: string) {
    let c = this.counts.get(name);
    if (!c) this.counts.set(name, (c = { successes: 0, failures: 0 }));
    return c;
  }

  /** Providers able to serve a capability right now, in chain order. */
  capable(capability: Capability): Provider[] {
    return this.providers.filter((p) => p.capabilities().has(capability));
  }

  /** A fresh budget for one read; pass it to several runs that serve the same request. */
  deadline(): Deadline {
    return new Deadline(this.deadlineMs, this.now);
  }

  /**
   * Calls `call` on each capable provider in order until one answers. `call` receives the read's abort
   * signal and deadline and must hand them to the provider. A provider whose circuit is open is skipped;
   * when every capable provider is skipped the read fails at once with their last failures, so a dead
   * upstream costs nothing until its half-open trial. Once the deadline has passed no further provider is
   * tried.
   */
  async run<T>(
    capability: Capability,
    call: (p: Provider, opts: CallOptions) => Promise<T>,
    opts: RunOptions,
  ): Promise<ChainOutcome<T>> {
    const candidates = this.candidates(capability, opts.only);
    if (candidates.length === 0) return { ok: false, failure: this.noProvider(capability, opts.only) };
    const deadline = opts.deadline ?? this.deadline();
    const base: CallOptions = {
      signal: opts.signal,
      deadline,
      ...(opts.chargeSession ? { chargeSession: opts.chargeSession } : {}),
      beforeRequest: this.chargeFor(opts.payer, opts.call),
    };

    const failures: Failure[] = [];
    const skipped: Provider[] = [];
    const untried: string[] = [];
    // An `empty` answer is judged by the outcome: if a later provider says "not found", the content is gone and
    // the empty provider was right (a deleted post must not open its breaker); otherwise it counts as a failure.
    const emptyPending: { circuit?: Circuit; ticket: Ticket; name: string }[] = [];
    const settleEmpty = (gone: boolean) => {
      for (const e of emptyPending.splice(0)) {
        if (gone) e.circuit?.release(e.ticket);
        else this.countFailure(e.name, e.circuit, e.ticket, 'empty');
      }
    };
    for (const p of candidates) {
      if (failures.length > 0 && deadline.spent) {
        untried.push(p.name);
        continue;
      }
      const circuit = this.circuitOf(p.name, capability);
      const ticket: Ticket | undefined = circuit ? circuit.acquire() : 'call';
      if (!ticket) {
        skipped.push(p);
        continue;
      }
      // Only "not found" without a voucher so far: asking this provider would merely confirm it.
      const confirming = failures.length > 0 && failures.every((f) => f.kind === 'unconfirmed');
      try {
        const value = await call(p, confirming ? { ...base, confirming } : base);
        circuit?.success(ticket);
        this.countsOf(p.name).successes++;
        settleEmpty(false);
        return { ok: true, value, source: p.name };
      } catch (err) {
        if (opts.signal?.aborted || isAbort(err) || err instanceof AllowanceRefused) {
          circuit?.release(ticket);
          settleEmpty(true);
          throw err;
        }
        // The chain saw time left, but by the time the transport looked the deadline had gone: the provider was
        // not tried, and the answer is the failure of the one that used the time up.
        if (failures.length > 0 && err instanceof ProviderError && err.opts.notAsked) {
          circuit?.release(ticket);
          untried.push(p.name);
          continue;
        }
        const failure = toFailure(p.name, err);
        if (failure.kind === 'not_found') {
          circuit?.success(ticket);
          this.countsOf(p.name).successes++;
          settleEmpty(true);
          return { ok: false, failure: { kind: 'gone', provider: p.name, message: failure.message } };
        }
        // A provider saying "no session right now" is healthy, just idle; one saying "not found" without vouching
        // for it answered; and one refusing this request (4xx but 429) says nothing about its health. Only real
        // failures trip the breaker.
        if (failure.kind === 'unavailable' || failure.kind === 'unconfirmed' || isRequestRefusal(failure.status)) {
          circuit?.release(ticket);
        } else if (failure.kind === 'empty') {
          emptyPending.push({ circuit, ticket, name: p.name });
        } else {
          this.countFailure(p.name, circuit, ticket, failure.kind);
        }
        failures.push(failure);
      }
    }
    settleEmpty(false);
    // Nobody contradicted it and nobody else failed: "not found" is the best answer there is.
    if (failures.length > 0 && failures.every((f) => f.kind === 'unconfirmed')) {
      return { ok: false, failure: { kind: 'unconfirmed', failures } };
    }
    const anyTried = failures.length > 0;
    if (!anyTried) failures.push(...skipped.map((p) => this.skippedFailure(p, capability)));
    return {
      ok: false,
      failure: { kind: 'failed', failures, skipped: anyTried ? skipped.map((p) => p.name) : [], untried },
    };
  }

  private candidates(capability: Capability, only: string | undefined): Provider[] {
    return this.capable(capability).filter((p) => !only || p.name === only);
  }

  /**
   * The failure a run would end with at once because no provider can serve `capability` (restricted to `only`),
   * or undefined when one can: lets a caller refuse before it spends anything on the read.
   */
  unservable(capability: Capability, only?: string): ChainFailure | undefined {
    return this.candidates(capability, only).length === 0 ? this.noProvider(capability, only) : undefined;
  }

  private countFailure(name: string, circuit: Circuit | undefined, ticket: Ticket, kind: FailureKind): void {
    circuit?.failure(ticket);
    const c = this.countsOf(name);
    c.failures++;
    c.lastFailure = { kind, at: new Date(this.now()).toISOString() };
  }

  /** A provider skipped by its open circuit, reported as the failure that opened it. */
  private skippedFailure(p: Provider, capability: Capability): Failure {
    const circuit = this.circuitOf(p.name, capability);
    const waitS = Math.max(1, Math.ceil((circuit?.retryInMs ?? 0) / 1000));
    const last = this.countsOf(p.name).lastFailure;
    return {
      provider: p.name,
      kind: last?.kind ?? 'error',
      message: `${p.name} is failing repeatedly (last: ${last?.kind ?? 'error'}) and is not asked for the next ${waitS} s`,
      skippedForS: waitS,
    };
  }

  /** No provider can serve the capability; `parked` is the one that has it back soonest, if one only lacks it now. */
  private noProvider(capability: Capability, only: string | undefined): ChainFailure {
    const parked = this.providers
      .filter((p) => !only || p.name === only)
      .map((p) => ({ provider: p.name, waitS: p.retryAfterS?.(capability) }))
      .filter((p): p is { provider: string; waitS: number } => typeof p.waitS === 'number' && p.waitS > 0)
      .sort((a, b) => a.waitS - b.waitS)[0];
    return { kind: 'no_provider', capability, ...(only ? { only } : {}), ...(parked ? { parked } : {}) };
  }
}

function toFailure(provider: string, err: unknown): Failure {
  if (err instanceof ProviderError) {
    return {
      provider: err.provider || provider,
      kind: err.kind,
      message: err.message,
      status: err.opts.status,
      retryAfterS: err.opts.retryAfterS,
    };
  }
  // An unexpected throw (e.g. an upstream shape the parser did not foresee) is that provider's error,
  // not a reason to give up on the others.
  return { provider, kind: 'error', message: err instanceof Error ? err.message : String(err) };
}

/** A 4xx other than 429: the upstream refused this request, which says nothing about the upstream. */
function isRequestRefusal(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status < 500 && status !== 429;
}

function isAbort(err: unknown): boolean {
  return !!err && typeof err === 'object' && (err as { name?: string }).name === 'AbortError';
}
