// X web GraphQL operations as data. X rotates query ids and feature flags with its web deploys, so the
// values live in operations.json (shipped, the current table), an operator's THREADMARK_X_OPERATIONS file
// merged over it, and ids read from X's web bundle when discovery is on. This module holds the shapes, the
// validation of an override file and the merge; operation-table.ts keeps the table in force at run time.
// The shipped values come from twscrape `twscrape/api.py` OP_* + GQL_FEATURES (Nitter `src/consts.nim`
// and FxEmbed carry the same facts); upstreams.md §3.2 records when they were taken. The list operations and
// UserByRestId come from twscrape @9745b02 (`OP_ListLatestTweetsTimeline`, `OP_ListMembers`, `OP_UserByRestId`);
// twscrape has no ListByRestId, so its id is Nitter's (`src/consts.nim` graphListById @a68b576). Retweeters and
// UserMedia come from twscrape @9745b02 too (`OP_Retweeters`, `OP_UserMedia` and their variables), and so does
// AboutAccountQuery (`OP_AboutAccountQuery`, variables {screenName}) and GenericTimelineById (`OP_GenericTimelineById`
// and the variables of its `trends_raw`: count 20, withQuickPromoteEligibilityTweetFields; the timeline id per call).
// twscrape has no UserArticlesTweets (the Articles tab): its id, variables and field toggles are FxEmbed's
// (`UserArticlesTweetsQuery` in packages/atmosphere/src/providers/twitter/graphql/queries.ts @85ba21c), with the
// timeline flags of UserTweets and `articles_preview_enabled` on, as FxEmbed sends it (graphql/features.ts @85ba21c).
// UserTweetsAndReplies (the profile's Replies tab, which UserTweets' answer leaves replies to others out of) is
// twscrape's `OP_UserTweetsAndReplies` @9745b02 with UserTweets' variables and features plus `withCommunity`, as
// upstreams.md §3.2 lists it.
import { z } from 'zod';
import SHIPPED from './operations.json' with { type: 'json' };
import type { SearchFeed } from '../types.ts';

export const OPERATION_NAMES = [
  'TweetDetail',
  'UserByScreenName',
  'UserTweets',
  'UserTweetsAndReplies',
  'Followers',
  'Following',
  'SearchTimeline',
  'UserByRestId',
  'ListByRestId',
  'ListLatestTweetsTimeline',
  'ListMembers',
  'Retweeters',
  'UserMedia',
  'UserArticlesTweets',
  'AboutAccountQuery',
  'GenericTimelineById',
] as const;
export type OperationName = (typeof OPERATION_NAMES)[number];

export interface Operation {
  queryId: string;
  operationName: OperationName;
  /** Whether X wants an `x-client-transaction-id` header on this operation. */
  transactionId: boolean;
  /** Defaults merged under the per-call variables. */
  variables: Readonly<Record<string, unknown>>;
  features: Readonly<Record<string, boolean>>;
  fieldToggles?: Readonly<Record<string, boolean>>;
}

export type OperationsTable = Readonly<Record<OperationName, Operation>>;

/** X's query ids are 22 URL-safe base64 characters today; a little slack in case that changes. */
const QUERY_ID = /^[A-Za-z0-9_-]{8,64}$/;

const flags = (nullable: boolean) =>
  z.record(
    z.string().regex(/^[A-Za-z0-9_]{1,100}$/, 'is not a feature flag name'),
    nullable ? z.boolean().nullable() : z.boolean(),
  );

/** One entry of an override file: every field optional; a flag set to null removes it from the defaults. */
const OverrideEntry = z
  .object({
    queryId: z.string().regex(QUERY_ID, 'must be 8-64 letters, digits, _ or -'),
    transactionId: z.boolean(),
    variables: z.record(z.string(), z.unknown()),
    features: flags(true),
    fieldToggles: flags(true),
  })
  .partial()
  .strict();

export type OperationOverride = z.infer<typeof OverrideEntry>;
export type OperationsOverride = Partial<Record<OperationName, OperationOverride>>;

/** A bad override file; the message is one line naming the offending key. */
export class OperationsFileError extends Error {}

/**
 * Validates the JSON text of an override file. Throws OperationsFileError with e.g.
 * `TweetDetail.features.foo must be true, false or null`.
 */
export function parseOperationsOverride(text: string): OperationsOverride {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new OperationsFileError(`is not valid JSON (${(err as Error).message.split('\n')[0]})`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new OperationsFileError('must be a JSON object keyed by operation name');
  }
  const out: OperationsOverride = {};
  for (const [name, entry] of Object.entries(raw)) {
    if (!(OPERATION_NAMES as readonly string[]).includes(name)) {
      throw new OperationsFileError(`${name} is not a known operation (known: ${OPERATION_NAMES.join(', ')})`);
    }
    const parsed = OverrideEntry.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const path = [
        name,
        ...issue.path.map(String),
        ...(issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : []),
      ].join('.');
      throw new OperationsFileError(`${path} ${describeIssue(issue)}`);
    }
    out[name as OperationName] = parsed.data;
  }
  return out;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys')
    return 'is not a field of an operation (queryId, transactionId, variables, features, fieldToggles)';
  if (issue.code === 'invalid_type' && issue.path.length === 2 && /features|fieldToggles/.test(String(issue.path[0]))) {
    return 'must be true, false or null';
  }
  if (issue.code === 'invalid_type') return `must be ${issue.expected === 'record' ? 'an object' : issue.expected}`;
  return issue.message;
}

function mergeFlags(
  base: Readonly<Record<string, boolean>> | undefined,
  over: Record<string, boolean | null> | undefined,
) {
  if (!over) return base;
  const out: Record<string, boolean> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** The override merged over `base`, operation by operation and flag by flag. */
export function mergeOperations(base: OperationsTable, override: OperationsOverride): OperationsTable {
  const out = { ...base } as Record<OperationName, Operation>;
  for (const name of OPERATION_NAMES) {
    const o = override[name];
    if (!o) continue;
    const b = base[name];
    const fieldToggles = mergeFlags(b.fieldToggles, o.fieldToggles);
    out[name] = {
      ...b,
      ...(o.queryId ? { queryId: o.queryId } : {}),
      ...(o.transactionId !== undefined ? { transactionId: o.transactionId } : {}),
      ...(o.variables ? { variables: { ...b.variables, ...o.variables } } : {}),
      features: mergeFlags(b.features, o.features) ?? {},
    };
    delete out[name].fieldToggles;
    if (fieldToggles && Object.keys(fieldToggles).length > 0) out[name].fieldToggles = fieldToggles;
  }
  return out;
}

function shippedTable(): OperationsTable {
  const override = parseOperationsOverride(JSON.stringify(SHIPPED));
  const empty = Object.fromEntries(
    OPERATION_NAMES.map((n) => [
      n,
      { queryId: '', operationName: n, transactionId: false, variables: {}, features: {} },
    ]),
  ) as unknown as OperationsTable;
  const table = mergeOperations(empty, override);
  for (const n of OPERATION_NAMES) if (!table[n].queryId) throw new Error(`operations.json lacks ${n}`);
  return table;
}

/** The shipped table (operations.json), validated like an override file. */
export const DEFAULT_OPERATIONS: OperationsTable = shippedTable();

/**
 * Our search feeds → SearchTimeline `product`. X's web app has no Photos/Videos products any more (none of
 * twscrape, Nitter or FxEmbed sends them); its media tab is `Media`, which mixes both. So photos/videos ask
 * for `Media` and keep only posts whose media include that kind.
 */
export const SEARCH_PRODUCTS: Readonly<Record<SearchFeed, { product: string; mediaKind?: 'photo' | 'video' }>> = {
  latest: { product: 'Latest' },
  top: { product: 'Top' },
  users: { product: 'People' },
  photos: { product: 'Media', mediaKind: 'photo' },
  videos: { product: 'Media', mediaKind: 'video' },
};

/** X ranks conversation replies by Relevance (its "top"), Recency or Likes. */
export const RANKING_MODES = { top: 'Relevance', recent: 'Recency' } as const;

/** `<apiRoot>/graphql/<queryId>/<Operation>?variables=..&features=..[&fieldToggles=..]`. */
export function graphqlUrl(apiRoot: string, op: Operation, variables: Record<string, unknown>): string {
  const params = new URLSearchParams();
  params.set('variables', JSON.stringify({ ...op.variables, ...dropUndefined(variables) }));
  params.set('features', JSON.stringify(op.features));
  if (op.fieldToggles) params.set('fieldToggles', JSON.stringify(op.fieldToggles));
  return `${apiRoot.replace(/\/+$/, '')}/graphql/${op.queryId}/${op.operationName}?${params.toString()}`;
}

function dropUndefined(v: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined));
}
