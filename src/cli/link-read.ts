// `threadmark read <link>` for a pasted link that names something other than a post: a profile or one of its tabs,
// a post's quotes or reposts, a hashtag, a cashtag, a search, a List, the trends. The one pasted-link reader
// (domain/pasted-link.ts, called by cli/read.ts) says what the link names, and the command reads this service's
// permalink of it, so the answer is the one the same link gets as a prefix read (`/https://x.com/...`).
import { permalinkOf, type LinkTarget } from '../domain/pasted-link.ts';
import { EXIT, usageError } from './exit.ts';
import type { Client } from './client.ts';
import { writeDocument, type CliIO } from './output.ts';
import type { Query } from './transport.ts';

export interface LinkRead {
  /** The permalink's path on this service. */
  path: string;
  /** The permalink's own query (a search's terms, a tab's feed). */
  query: Query;
  /** What the link names, in the command's words. */
  what: string;
  /** A feed: read as the service serves it (XML), without a representation to choose. */
  feed: boolean;
}

const WHAT: Record<Exclude<LinkTarget['kind'], 'post'>, string> = {
  'post-list': "a post's quotes or reposts",
  profile: 'an account',
  feed: 'a feed',
  user: 'an account',
  list: 'an X List',
  search: 'a search',
  tag: 'a hashtag or cashtag',
  trends: 'the trends',
};

/** The `read` options this reads with, and those that only a post's read takes (refused here). */
export interface LinkReadFlags {
  format: 'markdown' | 'obsidian' | 'json' | 'html';
  full?: boolean;
  nocache?: boolean;
  budget?: string;
  thread?: string;
  context?: string;
  replies?: string;
  userinfo?: string;
  translate?: string;
  lang?: string;
  out?: string;
}

const POST_ONLY: Array<[keyof LinkReadFlags, string]> = [
  ['thread', '--thread'],
  ['context', '--context'],
  ['replies', '--replies'],
  ['userinfo', '--userinfo'],
  ['out', '--out'],
];

function isFeed(t: Exclude<LinkTarget, { kind: 'post' }>): boolean {
  return t.kind === 'feed' || (t.kind === 'list' && t.feed) || ((t.kind === 'search' || t.kind === 'tag') && t.rss);
}

/** The read of a pasted link that names something other than a post. */
export function linkRead(t: Exclude<LinkTarget, { kind: 'post' }>): LinkRead {
  const url = new URL(permalinkOf(t), 'http://permalink.invalid');
  return {
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    what: WHAT[t.kind],
    feed: isFeed(t),
  };
}

export async function runLinkRead(
  client: Client,
  target: string,
  read: LinkRead,
  flags: LinkReadFlags,
  io: CliIO,
): Promise<number> {
  for (const [key, flag] of POST_ONLY)
    if (flags[key] !== undefined) throw usageError(`${flag} applies to posts; ${target} names ${read.what}`);
  if (flags.format === 'obsidian') throw usageError(`--format obsidian applies to posts; ${target} names ${read.what}`);
  const query: Query = {
    ...read.query,
    full: flags.full ? 'true' : undefined,
    nocache: flags.nocache ? 'true' : undefined,
    budget: flags.budget,
    // Every read that lists posts translates; a feed's link is read as it is served.
    translate: read.feed ? undefined : (flags.translate ?? flags.lang),
  };
  let body: string;
  if (read.feed) {
    if (flags.format !== 'markdown') throw usageError(`${target} is a feed: it is read as the service serves it`);
    body = await client.text(read.path, query);
  } else if (flags.format === 'html') body = await client.text(read.path, query, 'text/html');
  else body = await client.text(read.path, { ...query, format: flags.format });
  writeDocument(io.stdout, body);
  return EXIT.ok;
}
