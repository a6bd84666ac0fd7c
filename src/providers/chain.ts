import { Problem } from '../problems/problem.ts';
import { Circuit, type CircuitOptions } from './circuit.ts';
import { ProviderError, type Capability, type FailureKind, type Provider } from './types.ts';

export interface ChainOptions {
  /** Breaker settings per provider; `false` turns the breaker off. Default: 5 failures, 30 s. */
  circuit?: Omit<CircuitOptions, 'now'> | false;
  now?: () => number;
}

export interface RunOptions {
  /** Search routes answer 503 (with Retry-After) instead of 502 when every provider fails. */
  search?: boolean;
  /** Restrict the run to one named provider, e.g. to continue with the provider that issued a cursor. */
  only?: string;
  /** The caller's signal: once aborted, the abort is re-thrown instead of trying further providers. */
  signal?: AbortSignal;
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

/**
 * Tries the providers that declare a capability, in configured order, and returns the first answer.
 *
 * - `not_found` from any provider is a positive answer ("deleted, protected or missing"): it stops the
 *   chain with Problem `not_found`.
 * - `error`, `empty`, `network` and `unavailable` fall through to the next provider.
 * - When every tried provider failed: exactly one failure gives `<provider>_<kind>` (`unavailable` is
 *   reported as `<provider>_error`, the catalog has no `_unavailable` code); several give
 *   `all_providers_failed` with each provider's failure in the detail and in `extensions.failures`.
 *   On search, failures that are all `unavailable` (no usable session) give `search_unavailable`.
 * - No capable provider at all: `upstream_error`, or `search_unavailable` for search.
 * Search problems carry status 503 and a Retry-After (the shortest one a provider gave, else 30 s).
 */
export interface ProviderHealth {
  name: string;
  capabilities: Capability[];
  successes: number;
  failures: number;
  lastFailure?: { kind: FailureKind; at: string };
  breaker: 'closed' | 'open' | 'half-open' | 'off';
}

export class ProviderChain {
  private readonly circuits = new Map<string, Circuit>();
  private readonly counts = new Map<string, { successes: number; failures: number; lastFailure?: { kind: FailureKind; at: string } }>();

  constructor(
    readonly providers: Provider[],
    opts: ChainOptions = {},
  ) {
    const circuit = opts.circuit ?? { threshold: 5, cooldownMs: 30_000 };
    if (circuit) for (const p of providers) this.circuits.set(p.name, new Circuit({ ...circuit, now: opts.now }));
  }

  /** Per-provider counters and breaker state, for GET /api, /readyz and metrics. */
  health(): ProviderHealth[] {
    return this.providers.map((p) => {
      const c = this.countsOf(p.name);
      return {
        name: p.name,
        capabilities: [...p.capabilities()],
        successes: c.successes,
        failures: c.failures,
        ...(c.lastFailure ? { lastFailure: c.lastFailure } : {}),
        breaker: this.circuits.get(p.name)?.state ?? 'off',
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

  async run<T>(capability: Capability, call: (p: Provider) => Promise<T>, opts: RunOptions = {}): Promise<{ value: T; source: string }> {
    const candidates = this.capable(capability).filter((p) => !opts.only || p.name === opts.only);
    if (candidates.length === 0) return this.noProvider(capability, opts);

    // Skip providers whose circuit is open, unless that would leave nobody to ask.
    const healthy = candidates.filter((p) => this.circuits.get(p.name)?.allows() ?? true);
    const attempt = healthy.length > 0 ? healthy : candidates;
    const skipped = candidates.filter((p) => !attempt.includes(p)).map((p) => p.name);

    const failures: Failure[] = [];
    for (const p of attempt) {
      const circuit = this.circuits.get(p.name);
      try {
        const value = await call(p);
        circuit?.success();
        this.countsOf(p.name).successes++;
        return { value, source: p.name };
      } catch (err) {
        if (opts.signal?.aborted || isAbort(err) || err instanceof Problem) throw err;
        const failure = toFailure(p.name, err);
        if (failure.kind === 'not_found') {
          circuit?.success();
          this.countsOf(p.name).successes++;
          throw new Problem('not_found', failure.message, { extensions: { source: p.name } });
        }
        // A provider saying "no session right now" is healthy, just idle; only real failures trip the breaker.
        if (failure.kind !== 'unavailable') {
          circuit?.failure();
          const c = this.countsOf(p.name);
          c.failures++;
          c.lastFailure = { kind: failure.kind, at: new Date().toISOString() };
        }
        failures.push(failure);
      }
    }
    return this.allFailed(failures, skipped, opts);
  }

  private noProvider(capability: Capability, opts: RunOptions): never {
    const detail = opts.only
      ? `Provider ${opts.only} cannot serve ${capability} right now.`
      : `No configured provider can serve ${capability}.`;
    if (opts.search) {
      throw new Problem('search_unavailable', detail, { headers: { 'Retry-After': String(DEFAULT_SEARCH_RETRY_AFTER_S) } });
    }
    throw new Problem('upstream_error', detail);
  }

  private allFailed(failures: Failure[], skipped: string[], opts: RunOptions): never {
    const search = !!opts.search;
    const waits = failures.map((f) => f.retryAfterS).filter((s): s is number => typeof s === 'number');
    const retryAfter = waits.length > 0 ? Math.min(...waits) : undefined;
    const headers: Record<string, string> = {};
    if (search || retryAfter !== undefined) headers['Retry-After'] = String(retryAfter ?? DEFAULT_SEARCH_RETRY_AFTER_S);
    const extensions = { failures: failures.map(({ provider, kind, status }) => ({ provider, kind, ...(status ? { status } : {}) })) };
    const note = skipped.length > 0 ? ` Skipped while failing repeatedly: ${skipped.join(', ')}.` : '';

    if (search && failures.every((f) => f.kind === 'unavailable')) {
      throw new Problem('search_unavailable', `${failures.map(describe).join('; ')}.${note}`, { headers, extensions, search });
    }
    if (failures.length === 1) {
      const f = failures[0]!;
      const kind = f.kind === 'unavailable' ? 'error' : f.kind;
      throw new Problem(`${f.provider}_${kind}`, `${f.message}${note}`, { headers, extensions, search });
    }
    throw new Problem('all_providers_failed', `${failures.map(describe).join('; ')}.${note}`, { headers, extensions, search });
  }
}

function describe(f: Failure): string {
  return `${f.provider}: ${f.kind}${f.status ? ` (HTTP ${f.status})` : ''} ${f.message}`;
}

function toFailure(provider: string, err: unknown): Failure {
  if (err instanceof ProviderError) {
    return { provider: err.provider || provider, kind: err.kind, message: err.message, status: err.opts.status, retryAfterS: err.opts.retryAfterS };
  }
  // An unexpected throw (e.g. an upstream shape the parser did not foresee) is that provider's error,
  // not a reason to give up on the others.
  return { provider, kind: 'error', message: err instanceof Error ? err.message : String(err) };
}

function isAbort(err: unknown): boolean {
  return !!err && typeof err === 'object' && (err as { name?: string }).name === 'AbortError';
}
