import { ConfigError } from '../config-error.ts';
import { FxTwitterProvider } from './fxtwitter/provider.ts';
import type { UpstreamPolicy } from './http.ts';
import { SyndicationProvider } from './syndication/provider.ts';
import type { Provider } from './types.ts';
import { createXProvider, type XProviderConfig } from './x/setup.ts';

export interface ProvidersConfig {
  /** THREADMARK_PROVIDERS split on commas, e.g. ['fxtwitter', 'syndication', 'x']. */
  order: string[];
  fxtwitterUrl: string;
  syndicationUrl: string;
  timeoutMs: number;
  /** Retries, backoff and body limit shared by every provider. */
  policy?: UpstreamPolicy;
  /** Settings only some factories read (the X provider's API root and sessions, for instance). */
  [extra: string]: unknown;
}

export type ProviderFactory = (cfg: ProvidersConfig) => Provider | undefined;

/**
 * Provider name → factory. Every built-in provider is listed here; `registerProvider` adds another (the tests
 * register fakes). A factory may return undefined when its configuration is missing.
 */
const factories = new Map<string, ProviderFactory>([
  [
    'fxtwitter',
    (cfg) => new FxTwitterProvider({ baseUrl: cfg.fxtwitterUrl, timeoutMs: cfg.timeoutMs, policy: cfg.policy }),
  ],
  [
    'syndication',
    (cfg) => new SyndicationProvider({ baseUrl: cfg.syndicationUrl, timeoutMs: cfg.timeoutMs, policy: cfg.policy }),
  ],
  [
    'x',
    (cfg) => {
      try {
        return createXProvider({
          xApiUrl: typeof cfg.xApiUrl === 'string' ? cfg.xApiUrl : '',
          xSessionsPath: typeof cfg.xSessionsPath === 'string' ? cfg.xSessionsPath : undefined,
          xOperationsPath: typeof cfg.xOperationsPath === 'string' ? cfg.xOperationsPath : undefined,
          xDiscover: cfg.xDiscover === true,
          xWebUrl: typeof cfg.xWebUrl === 'string' ? cfg.xWebUrl : undefined,
          log: cfg.log as XProviderConfig['log'],
          upstreamTimeoutMs: cfg.timeoutMs,
          policy: cfg.policy,
        }).provider;
      } catch (err) {
        // The operator pointed at a sessions file we cannot read: a configuration error, not a crash.
        throw new ConfigError((err as Error).message);
      }
    },
  ],
]);

export function registerProvider(name: string, factory: ProviderFactory): void {
  factories.set(name, factory);
}

export function registeredProviders(): string[] {
  return [...factories.keys()];
}

/** Builds the chain's providers in configured order; names nobody registered are skipped. */
export function buildProviders(cfg: ProvidersConfig): Provider[] {
  const seen = new Set<string>();
  const out: Provider[] = [];
  for (const raw of cfg.order) {
    const name = raw.trim().toLowerCase();
    if (!name || seen.has(name)) continue;
    seen.add(name);
    const provider = factories.get(name)?.(cfg);
    if (provider) out.push(provider);
  }
  return out;
}
