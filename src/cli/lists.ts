// `profile`, `followers`, `following`, `search`, `list`, `list-members`, `quotes`, `reposts` and `media`: one page,
// or with --all every page
// until nextCursor is absent.
import { accountOf } from '../domain/pasted-link.ts';
import { CliError, EXIT } from './exit.ts';
import type { Client } from './client.ts';
import { Pager, ThreadmarkProtocolError } from '../client/index.ts';
import { writeDocument, type CliIO } from './output.ts';
import { X_BASE, type Query } from './transport.ts';

export const LIST_FORMATS = ['markdown', 'json'] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];
export type ListKind =
  | 'profile'
  | 'followers'
  | 'following'
  | 'search'
  | 'hashtag'
  | 'cashtag'
  | 'list'
  | 'list-members'
  | 'quotes'
  | 'reposts'
  | 'media'
  | 'articles';

export interface ListFlags {
  limit?: number;
  cursor?: string;
  format: ListFormat;
  all?: boolean;
  full?: boolean;
  nocache?: boolean;
  feed?: string;
  since?: string;
  until?: string;
  withReplies?: boolean;
  withReposts?: boolean;
  sinceId?: string;
  budget?: string;
  translate?: string;
}

export interface ListTarget {
  path: string;
  query: Query;
}

/**
 * The account people name: a handle, `@handle`, or a pasted profile URL (x.com/<handle>, twitter.com/<handle>/…,
 * with or without a scheme, or this service's own /<handle> pages): the service wants the bare handle, and checks
 * it. x.com/i/… addresses name no account and are refused here rather than read as the account "i".
 */
export function accountHandle(subject: string): string {
  const handle = accountOf(subject);
  if (handle === undefined)
    throw new CliError(
      'invalid_handle',
      `${subject.trim()} is not an account's address; give its handle (a profile by numeric id is read at /i/user/<id> on the service)`,
      EXIT.usage,
    );
  return handle;
}

/** The post a quotes or reposts list hangs off: its id, from a status URL, handle/status/id or the bare id. */
export function postIdOf(subject: string): string {
  const s = subject.trim();
  const id = /^[0-9]+$/.test(s) ? s : /\/status(?:es)?\/([0-9]+)/.exec(s)?.[1];
  if (id === undefined)
    throw new CliError(
      'invalid_params',
      `${s} is not a post: give a status URL (https://x.com/<handle>/status/<id>), <handle>/status/<id> or the numeric id`,
      EXIT.usage,
    );
  return id;
}

export function listTarget(kind: ListKind, subject: string): ListTarget {
  if (kind === 'quotes' || kind === 'reposts') return { path: `/api/v1/posts/${postIdOf(subject)}/${kind}`, query: {} };
  if (kind === 'search') return { path: '/api/v1/search', query: { q: subject } };
  // `#caching` and `$TSLA` as people write them: the service's pages take the tag without its sign.
  if (kind === 'hashtag')
    return { path: `/api/v1/hashtags/${encodeURIComponent(subject.replace(/^#/, ''))}`, query: {} };
  if (kind === 'cashtag')
    return { path: `/api/v1/cashtags/${encodeURIComponent(subject.replace(/^\$/, ''))}`, query: {} };
  if (kind === 'list' || kind === 'list-members') {
    // A pasted list URL (x.com/i/lists/<id>) works as well as the bare id.
    const id = encodeURIComponent(/\/lists\/([0-9]+)/.exec(subject)?.[1] ?? subject);
    return { path: `/api/v1/lists/${id}${kind === 'list' ? '' : '/members'}`, query: {} };
  }
  const handle = encodeURIComponent(accountHandle(subject));
  return { path: `/api/v1/profiles/${handle}${kind === 'profile' ? '' : `/${kind}`}`, query: {} };
}

interface ListEnvelope {
  markdown?: string;
  nextCursor?: string;
  page?: number;
  items?: unknown[];
  posts?: unknown[];
  warnings?: unknown[];
  [k: string]: unknown;
}

/** The profile route pages its posts; the others page `items`. */
function itemsKey(env: ListEnvelope): 'items' | 'posts' {
  if (Array.isArray(env.items)) return 'items';
  if (Array.isArray(env.posts)) return 'posts';
  throw new CliError('unexpected_body', 'the list response has neither items nor posts', EXIT.failure);
}

/**
 * In-process without THREADMARK_BASE_URL links go to x.com, which has no next page of this service's: the
 * `Continue →` link becomes what asks for it in the interface at hand (`say` of the link's cursor).
 */
export function continueWithCursor(markdown: string, say: (cursor: string) => string): string {
  return markdown.replace(/^\[Continue →\]\(([^)\s]+)\)$/gm, (line, href: string) => {
    let cursor: string | null;
    try {
      cursor = new URL(href).searchParams.get('cursor');
    } catch {
      return line;
    }
    return cursor ? say(cursor) : line;
  });
}

/** On the command line, the flag that reads the next page. */
export const continueAsFlag = (markdown: string): string =>
  continueWithCursor(markdown, (cursor) => `Continue → --cursor ${cursor}`);

/** Each page's Markdown ends with a `Continue →` link to the next page; a concatenation must not. */
export function dropContinueLink(markdown: string): string {
  return markdown
    .split('\n')
    .filter((line) => !line.includes('Continue →'))
    .join('\n')
    .trimEnd();
}

export async function runList(
  client: Client,
  kind: ListKind,
  subject: string,
  flags: ListFlags,
  io: CliIO,
): Promise<number> {
  const target = listTarget(kind, subject);
  const query: Query = {
    ...target.query,
    feed: kind === 'search' || kind === 'hashtag' || kind === 'cashtag' ? flags.feed : undefined,
    limit: flags.limit === undefined ? undefined : String(flags.limit),
    full: flags.full ? 'true' : undefined,
    nocache: flags.nocache ? 'true' : undefined,
    since: flags.since,
    until: flags.until,
    with_replies: flags.withReplies ? 'true' : undefined,
    with_reposts: flags.withReposts ? 'true' : undefined,
    since_id: flags.sinceId,
    budget: flags.budget,
    translate: flags.translate,
  };
  if (!flags.all) {
    const body = await client.text(target.path, { ...query, cursor: flags.cursor, format: flags.format });
    writeDocument(io.stdout, flags.format === 'markdown' && client.baseUrl === X_BASE ? continueAsFlag(body) : body);
    return EXIT.ok;
  }
  if (flags.format === 'json') {
    writeDocument(io.stdout, JSON.stringify(mergePages(await allPages(client, target.path, query, flags.cursor, io))));
    return EXIT.ok;
  }
  // Markdown pages are written as they arrive: a reader that has seen enough (`| head`) closes the pipe, and the
  // command ends there instead of reading every page first.
  let first = true;
  await allPages(client, target.path, query, flags.cursor, io, (page) => {
    io.stdout.write(`${first ? '' : '\n\n'}${dropContinueLink(page.markdown ?? '')}`);
    first = false;
  });
  io.stdout.write('\n');
  return EXIT.ok;
}

async function allPages(
  client: Client,
  path: string,
  query: Query,
  start: string | undefined,
  io: CliIO,
  onPage?: (page: ListEnvelope) => void,
): Promise<ListEnvelope[]> {
  const pages: ListEnvelope[] = [];
  let total = 0;
  // The typed client's pager follows the cursors and stops at the end, or at a cursor it was sent before.
  const pager = new Pager<unknown, ListEnvelope>(
    (cursor) => client.json<ListEnvelope>(path, { ...query, cursor }),
    (env) => env[itemsKey(env)]!,
    start,
  );
  try {
    for await (const { body: env, items, nextCursor } of pager.pages()) {
      pages.push(env);
      onPage?.(env);
      total += items.length;
      io.stderr.write(
        `threadmark: page ${pages.length}: ${items.length} items, ${total} in all${nextCursor ? ', more to come' : ', done'}\n`,
      );
    }
  } catch (e) {
    if (!(e instanceof ThreadmarkProtocolError)) throw e;
    throw new CliError(e.code, `the service sent back the cursor of page ${pages.length} again`, EXIT.failure);
  }
  return pages;
}

/**
 * The first page's envelope holding every page's items and every distinct warning; the per-page fields
 * (markdown, page, nextCursor) are dropped.
 */
export function mergePages(pages: ListEnvelope[]): Record<string, unknown> {
  const key = itemsKey(pages[0]!);
  const { markdown: _m, nextCursor: _n, page: _p, ...rest } = pages[0]!;
  const merged: Record<string, unknown> = { ...rest, [key]: pages.flatMap((p) => p[key] ?? []) };
  if (Array.isArray(rest.warnings))
    merged.warnings = [...new Set(pages.flatMap((p) => (Array.isArray(p.warnings) ? p.warnings : [])))];
  merged.pages = pages.length;
  return merged;
}
