// The "Allowances" part of /docs/reliability: every rate-limit policy the service charges, with its quota, window,
// partition and what it pays for. Typed over every policy name, so a new allowance cannot ship undescribed.
import { CALL_ALLOWANCES } from '../../stores/limits/payers.ts';
import {
  ACCOUNT_KEY_WINDOW_S,
  ADMIN_FAILURES,
  DEFAULT_ACCOUNT_QUOTA,
  HUB_REQUESTS,
  HUB_SOURCES_PER_ADDRESS,
  POLICIES,
  WATCH_CREATES,
  type Policy,
  type PolicyName,
} from '../../stores/limits/policies.ts';
import { esc, prose, table } from './html.ts';

interface Allowance {
  /** What one point pays for. */
  paysFor: string;
  /** The partition: a client address, or an API key. */
  per: 'address' | 'key';
}

const ALLOWANCES: Readonly<Record<PolicyName, Allowance>> = {
  'api-ip': { per: 'address', paysFor: 'Every request to a public API route (a cached answer included).' },
  'search-ip': {
    per: 'address',
    paysFor:
      'Each live upstream read of a search lookup, a date-windowed feed or a `nocache` read (cache hits are free).',
  },
  'search-key': { per: 'key', paysFor: 'The same live lookups for a key holder.' },
  'account-ip': {
    per: 'address',
    paysFor:
      "Each upstream call made with one of the deployment's logged-in X sessions: account-backed feeds and X Lists per page, any other read's fallback or confirmation per X operation, and each X call of a background read of a topic the address subscribed to.",
  },
  'account-key': {
    per: 'key',
    paysFor:
      'The same X session calls for a key holder, its watches included; the quota is set on the key when it is issued (default ' +
      `${DEFAULT_ACCOUNT_QUOTA} per ${ACCOUNT_KEY_WINDOW_S} s).`,
  },
  'live-key': {
    per: 'key',
    paysFor:
      'Each live upstream read of a keyed request (keyed reads never use the shared cache), and each media file it fetches.',
  },
  'export-ip': { per: 'address', paysFor: 'Each export, charged before it reads anything.' },
  'export-key': { per: 'key', paysFor: 'Each export of a key holder.' },
  'media-ip': {
    per: 'address',
    paysFor: 'Each request for a media file through the proxy, and each file the proxy fetches from X’s media hosts.',
  },
  'translate-ip': {
    per: 'address',
    paysFor:
      'Each upstream translation call of a read with `lang` (one per post not yet translated into that language; cached translations are free).',
  },
  'translate-key': { per: 'key', paysFor: 'The same translation calls for a key holder.' },
  'poll-ip': {
    per: 'address',
    paysFor: `Each upstream call of a background read of a WebSub topic the address subscribed to (at most ${HUB_SOURCES_PER_ADDRESS} live subscriptions per address). The followers of a source take turns paying; when none can, the source waits.`,
  },
  'poll-key': { per: 'key', paysFor: 'Each upstream call of a background read of a source the key watches.' },
  'watch-key': { per: 'key', paysFor: 'Each watch created (POST /api/v1/watches), kept or deleted.' },
  'hub-ip': { per: 'address', paysFor: 'Each WebSub subscribe or unsubscribe request (POST /api/v1/hub).' },
  'admin-fail': {
    per: 'address',
    paysFor: 'Each wrong admin token presented; when it is used up, the admin routes refuse the address.',
  },
};

/** Every policy with its contract quota (account-key: the default a key is issued with). */
function policies(): Policy[] {
  return [
    ...Object.values(POLICIES),
    { name: 'account-key', quota: DEFAULT_ACCOUNT_QUOTA, windowS: ACCOUNT_KEY_WINDOW_S },
    WATCH_CREATES,
    HUB_REQUESTS,
    ADMIN_FAILURES,
  ];
}

export function renderAllowances(): string {
  const rows = policies().map((p) => {
    const a = ALLOWANCES[p.name];
    return [
      `<code>${esc(p.name)}</code>`,
      esc(p.quota),
      `${esc(p.windowS)} s`,
      a.per === 'key' ? 'API key' : 'client address',
      prose(a.paysFor),
    ];
  });
  const kinds = Object.entries(CALL_ALLOWANCES)
    .map(([call, by]) => `${call}: <code>${esc(by.address)}</code> / <code>${esc(by.key)}</code>`)
    .join('; ');
  return `<h2 id="allowances">Allowances</h2>
<p>Every upstream call the service makes (a read, a background poll of a watched source, a translation, a media fetch) is made for a payer, an API key or a client address, and charged to that payer's allowance for its kind of call before it is sent. A read is paid by its request (<code>api-ip</code>, and per live read the policies below); the other kinds cost one point per upstream call, by address / by key: ${kinds}. Each response lists the policies it was charged in <code>RateLimit</code> and <code>RateLimit-Policy</code>; a used-up allowance is 429 <code>rate_limited</code> with <code>Retry-After</code>.</p>
${table(['Policy', 'Quota', 'Window', 'Per', 'Pays for'], rows)}`;
}
