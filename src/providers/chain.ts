import { Problem } from '../problems/problem.ts';
import { providerCode } from '../problems/catalog.ts';
import { Circuit, type CircuitOptions, type Ticket } from './circuit.ts';
import { DEFAULT_DEADLINE_MS, Deadline } from './deadline.ts';
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
  /** Search routes answer 503 (with Retry-After) instead of 502 when every provider fails. */
  search?: boolean;
  /**
   * Account-backed reads other than search (X Lists): the problem to answer, 503 with Retry-After, when no
   * provider can serve the capability for want of a usable session. Other failures keep their usual codes.
   */
  unavailable?: 'list_unavailable';
  /** Restrict the run to one named provider, e.g. to continue with the provider that issued a cursor. */
  only?: string;
  /** The caller's signal: once aborted, the abort is re-thrown instead of trying further providers. */
  signal?: AbortSignal;
  /** A budget shared with other runs of the same read (e.g. a conversation and its single-post fallback). */
  deadline?: Deadline;
}

export interface Failure {
  provider: string;
  kind: FailureKind;
  message: string;
  status?: number;
  retryAfterS?: number;
}

/** Seconds advertised on search 503s when no provider said when to come back. */
export const DEFAULT_SEARCH_RETRY_AFTER_S = 30;

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
 * Tries the providers that declare a capability, in configured order, and returns the first answer.
 *
 * - `not_found` from any provider is a positive answer ("deleted, protected or missing"): it stops the
 *   chain with Problem `not_found`.
 * - `unconfirmed` ("not found" from a provider that says so on its own failures too) falls through; when
 *   every tried provider answered that way the read is `not_found` with `confirmed: false`.
 * - `error`, `empty`, `network` and `unavailable` fall through to the next provider.
 * - When every tried provider failed: exactly one failure gives `<provider>_<kind>` (`unavailable` is
 *   reported as `<provider>_error`, the catalog has no `_unavailable` code); several give
 *   `all_providers_failed` with each provider's failure in the detail and in `extensions.failures`.
 *   On search, failures that are all `unavailable` (no usable session) give `search_unavailable`.
 * - No capable provider at all: `upstream_error`, or `search_unavailable` for search (`opts.unavailable` for the
 *   other account-backed reads; so too when every failure was `unavailable`).
 * - Providers whose circuit is open are skipped (one half-open trial at a time); when all are skipped the
 *   read fails at once with their last failure kinds. There is one circuit per provider and capability, so
 *   failing searches never switch off a provider's post reads.
 * - An upstream 4xx other than 429 is about the request (a bogus id, a query it refuses), not the provider's
 *   health: the chain falls through as usual but the breaker does not count it, or anyone could open it.
 * Search problems carry status 503 and a Retry-After (the shortest one a provider gave, else 30 s).
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
    opts: RunOptions = {},
  ): Promise<{ value: T; source: string }> {
    const candidates = this.capable(capability).filter((p) => !opts.only || p.name === opts.only);
    if (candidates.length === 0) return this.noProvider(capability, opts);
    const deadline = opts.deadline ?? this.deadline();
    const ctx: CallOptions = { signal: opts.signal, deadline };

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
      if (failures.length > 0 && deadline.expired) {
        untried.push(p.name);
        continue;
      }
      const circuit = this.circuitOf(p.name, capability);
      const ticket: Ticket | undefined = circuit ? circuit.acquire() : 'call';
      if (!ticket) {
        skipped.push(p);
        continue;
      }
      try {
        const value = await call(p, ctx);
        circuit?.success(ticket);
        this.countsOf(p.name).successes++;
        settleEmpty(false);
        return { value, source: p.name };
      } catch (err) {
        if (opts.signal?.aborted || isAbort(err) || err instanceof Problem) {
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
          throw new Problem('not_found', failure.message, { extensions: { source: p.name } });
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
    if (failures.length > 0 && failures.every((f) => f.kind === 'unconfirmed')) {
      // Nobody contradicted it and nobody else failed: "not found" is the best answer there is, marked as
      // unconfirmed so that a stale copy still stands in for it (read-through) and an ancestor walk retries.
      throw new Problem(
        'not_found',
        `${failures.map((f) => f.message).join('; ')}; no other provider could confirm it.`,
        {
          extensions: { source: failures[0]!.provider, confirmed: false },
        },
      );
    }
    const anyTried = failures.length > 0;
    if (!anyTried) failures.push(...skipped.map((p) => this.skippedFailure(p, capability, !!opts.search)));
    const notes = [
      ...(anyTried && skipped.length > 0
        ? [`Skipped while failing repeatedly: ${skipped.map((p) => p.name).join(', ')}.`]
        : []),
      ...(untried.length > 0 ? [`Not tried, the request deadline had passed: ${untried.join(', ')}.`] : []),
    ];
    return this.allFailed(failures, notes, opts);
  }

  private countFailure(name: string, circuit: Circuit | undefined, ticket: Ticket, kind: FailureKind): void {
    circuit?.failure(ticket);
    const c = this.countsOf(name);
    c.failures++;
    c.lastFailure = { kind, at: new Date(this.now()).toISOString() };
  }

  /** A provider skipped by its open circuit, reported as the failure that opened it. */
  private skippedFailure(p: Provider, capability: Capability, search: boolean): Failure {
    const circuit = this.circuitOf(p.name, capability);
    const waitS = Math.max(1, Math.ceil((circuit?.retryInMs ?? 0) / 1000));
    const last = this.countsOf(p.name).lastFailure;
    return {
      provider: p.name,
      kind: last?.kind ?? 'error',
      message: `${p.name} is failing repeatedly (last: ${last?.kind ?? 'error'}) and is not asked for the next ${waitS} s`,
      ...(search ? { retryAfterS: waitS } : {}),
    };
  }

  private noProvider(capability: Capability, opts: RunOptions): never {
    const detail = opts.only
      ? `Provider ${opts.only} cannot serve ${capability} right now.`
      : `No configured provider can serve ${capability}.`;
    // A provider that has the capability back after a known wait (X sessions parked until their reset).
    const code = opts.search ? 'search_unavailable' : opts.unavailable;
    if (code) {
      const wait = this.soonestWait(capability, opts);
      const retryAfter = wait ?? DEFAULT_SEARCH_RETRY_AFTER_S;
      const why =
        wait !== undefined
          ? ` Every session that could serve it is parked; the first frees up in ${retryAfter} s.`
          : opts.search
            ? ''
            : ' It is read with logged-in sessions, and the deployment has none configured.';
      throw new Problem(code, `${detail}${why}`, { headers: { 'Retry-After': String(retryAfter) } });
    }
    // Account-backed reads whose provider has every session parked: 503 until the earliest one frees up.
    const parked = this.providers
      .filter((p) => !opts.only || p.name === opts.only)
      .map((p) => ({ name: p.name, waitS: p.retryAfterS?.(capability) }))
      .filter((p): p is { name: string; waitS: number } => typeof p.waitS === 'number' && p.waitS > 0)
      .sort((a, b) => a.waitS - b.waitS)[0];
    if (parked) {
      throw new Problem(
        `${parked.name}_error`,
        `${detail} Every ${parked.name} session that could serve it is parked; the first frees up in ${parked.waitS} s.`,
        {
          status: 503,
          headers: { 'Retry-After': String(parked.waitS) },
        },
      );
    }
    throw new Problem('upstream_error', detail);
  }

  /** Seconds until a provider that lacks `capability` only for now has it back, the soonest of them. */
  private soonestWait(capability: Capability, opts: RunOptions): number | undefined {
    const waits = this.providers
      .filter((p) => !opts.only || p.name === opts.only)
      .map((p) => p.retryAfterS?.(capability))
      .filter((s): s is number => typeof s === 'number' && s > 0);
    return waits.length > 0 ? Math.min(...waits) : undefined;
  }

  private allFailed(failures: Failure[], notes: string[], opts: RunOptions): never {
    const search = !!opts.search;
    const waits = failures.map((f) => f.retryAfterS).filter((s): s is number => typeof s === 'number');
    const retryAfter = waits.length > 0 ? Math.min(...waits) : undefined;
    const headers: Record<string, string> = {};
    if (search || retryAfter !== undefined) headers['Retry-After'] = String(retryAfter ?? DEFAULT_SEARCH_RETRY_AFTER_S);
    const extensions = {
      failures: failures.map(({ provider, kind, status }) => ({ provider, kind, ...(status ? { status } : {}) })),
    };
    const note = notes.length > 0 ? ` ${notes.join(' ')}` : '';

    if (search && failures.every((f) => f.kind === 'unavailable')) {
      throw new Problem('search_unavailable', `${failures.map(describe).join('; ')}.${note}`, {
        headers,
        extensions,
        search,
      });
    }
    if (opts.unavailable && failures.every((f) => f.kind === 'unavailable')) {
      throw new Problem(opts.unavailable, `${failures.map(describe).join('; ')}.${note}`, {
        headers: { 'Retry-After': String(retryAfter ?? DEFAULT_SEARCH_RETRY_AFTER_S) },
        extensions,
      });
    }
    // Nothing failed, the capable providers only had no usable session: a wait, not an upstream failure.
    const waiting = failures.every((f) => f.kind === 'unavailable') && retryAfter !== undefined ? { status: 503 } : {};
    if (failures.length === 1) {
      const f = failures[0]!;
      // The code must stay inside the documented family: not_found stops the chain before this, and a lone
      // unconfirmed "not found" becomes not_found, but a breaker skip reports the last kind it saw (any of them).
      const kind = f.kind === 'unavailable' || f.kind === 'not_found' || f.kind === 'unconfirmed' ? 'error' : f.kind;
      throw new Problem(providerCode(f.provider, kind), `${f.message}${note}`, {
        headers,
        extensions,
        search,
        ...waiting,
      });
    }
    throw new Problem('all_providers_failed', `${failures.map(describe).join('; ')}.${note}`, {
      headers,
      extensions,
      search,
      ...waiting,
    });
  }
}

function describe(f: Failure): string {
  return `${f.provider}: ${f.kind}${f.status ? ` (HTTP ${f.status})` : ''} ${f.message}`;
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
