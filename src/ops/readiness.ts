// What GET /readyz reports: whether this instance can serve reads now.
import type { ProviderHealth } from '../providers/chain.ts';
import { generateKey } from '../stores/keys/crypto.ts';
import type { Stores } from '../stores/index.ts';

export interface StoresCheck {
  ok: boolean;
  mode: Stores['mode'];
  /** Whether the key store (SQLite, Redis or PostgreSQL) answered a lookup. */
  keys: 'ok' | 'unavailable';
  /** Distributed mode: Redis reachable (down = degraded, still ready; see checkStores). */
  shared?: 'up' | 'down';
  detail?: string;
}

export interface ProvidersCheck {
  ok: boolean;
  /** Providers with at least one capability and a breaker that is not open. */
  usable: string[];
  providers: Array<{ name: string; capabilities: number; breaker: ProviderHealth['breaker'] }>;
  detail?: string;
}

export interface Readiness {
  ready: boolean;
  checks: { stores: StoresCheck; providers: ProvidersCheck };
}

/**
 * The key store is probed with a well-formed key no one holds: a usable store answers `invalid`, a broken one
 * `unverified`. A broken SQLite file is this instance's own fault, so the instance reports not ready and the
 * balancer routes around it. An unreachable Redis hits every instance alike and the service already degrades
 * to per-instance cache and limits; failing readiness then would take the whole cluster out of rotation, so
 * distributed mode reports the outage (shared: down) but stays ready.
 */
export async function checkStores(stores: Stores): Promise<StoresCheck> {
  const probe = await stores.keys.verify(generateKey()).catch(() => ({ status: 'unverified' as const }));
  const keys = probe.status === 'unverified' ? 'unavailable' : 'ok';
  if (stores.mode === 'distributed') {
    const up = stores.sharedStoreUp();
    return {
      ok: true,
      mode: stores.mode,
      keys,
      shared: up ? 'up' : 'down',
      ...(up ? {} : { detail: 'Redis is unreachable: cache and rate limits are per instance, API keys unverified.' }),
    };
  }
  return {
    ok: keys === 'ok',
    mode: stores.mode,
    keys,
    ...(keys === 'ok' ? {} : { detail: 'The key store (SQLite, or PostgreSQL when configured) does not answer.' }),
  };
}

export function checkProviders(health: ProviderHealth[]): ProvidersCheck {
  // Breakers are per capability: a provider is out only when every capability it has been asked for is switched off.
  const usable = health.filter((p) => p.capabilities.length > 0 && isAnyBreakerClosed(p)).map((p) => p.name);
  const ok = usable.length > 0;
  return {
    ok,
    usable,
    providers: health.map((p) => ({ name: p.name, capabilities: p.capabilities.length, breaker: p.breaker })),
    ...(ok ? {} : { detail: describeUnusable(health) }),
  };
}

function isAnyBreakerClosed(p: ProviderHealth): boolean {
  const states = Object.values(p.breakers ?? {});
  return p.breaker === 'off' || states.length === 0 || states.some((s) => s !== 'open');
}

function describeUnusable(health: ProviderHealth[]): string {
  if (health.length === 0) return 'No provider is configured.';
  const why = health.map(
    (p) => `${p.name}: ${p.capabilities.length === 0 ? 'no capabilities' : `breaker ${p.breaker}`}`,
  );
  return `No provider can serve reads (${why.join('; ')}).`;
}

export async function checkReadiness(stores: Stores, providers: () => ProviderHealth[]): Promise<Readiness> {
  const s = await checkStores(stores);
  const p = checkProviders(providers());
  return { ready: s.ok && p.ok, checks: { stores: s, providers: p } };
}
