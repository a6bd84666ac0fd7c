// The service's problem documents speak HTTP: `thread` is a query parameter, `handle` a path segment. The command
// reports a problem in its own terms: the flag (or argument) and the value given, then what is accepted, with
// flag names wherever the service's text names a parameter.
import type { Query } from './transport.ts';

/** Query parameters the commands fill from the flag of the same meaning. */
const FLAGS: Readonly<Record<string, string>> = {
  thread: '--thread',
  context: '--context',
  replies: '--replies',
  userinfo: '--userinfo',
  full: '--full',
  nocache: '--nocache',
  budget: '--budget',
  translate: '--translate',
  format: '--format',
  limit: '--limit',
  cursor: '--cursor',
  feed: '--feed',
  since: '--since',
  until: '--until',
  since_id: '--since-id',
  with_replies: '--with-replies',
  with_reposts: '--with-reposts',
  max_posts: '--max-posts',
};

/** Parameters the commands fill from their argument. */
const ARGUMENTS: Readonly<Record<string, string>> = {
  handle: 'the account',
  url: 'the post',
  id: 'the id',
  q: 'the search terms',
};

/** What the command sent: the query, and the values of the route's path segments. */
export interface Sent {
  query: Query;
  params: Query;
}

/** The path segments of the routes the commands call, by name (the names the service's problems use). */
export function pathParams(path: string): Query {
  const m = /^\/api\/v1\/(profiles|lists)\/([^/?]+)/.exec(path);
  if (!m) return {};
  let value: string;
  try {
    value = decodeURIComponent(m[2]!);
  } catch {
    value = m[2]!;
  }
  return m[1] === 'profiles' ? { handle: value } : { id: value };
}

/** `since` in the service's words is `--since` on the command line. */
function inFlags(text: string): string {
  return text.replace(/`([a-z_]+)`/g, (whole, name: string) => FLAGS[name] ?? whole);
}

const VALIDATION = /^Invalid (?:query parameter|path segment) `([^`]+)`\.$/;

/**
 * One line for a problem: the service's detail (a generic "invalid parameter" becomes the flag and value given)
 * followed by its resolution, both in flag names. A resolution is left out where the command says it better
 * itself (rate limits and outages: the retry delay).
 */
export function problemText(detail: string, resolution: string | undefined, sent: Sent | undefined): string {
  let what = detail;
  const invalid = VALIDATION.exec(detail);
  if (invalid && sent) {
    const name = invalid[1]!;
    const value = sent.query[name] ?? sent.params[name];
    const label = FLAGS[name] ?? ARGUMENTS[name] ?? `\`${name}\``;
    what = value === undefined ? `${label} is not accepted` : `${label} ${value} is not accepted`;
  }
  what = inFlags(what).replace(/[.\s]+$/, '');
  return resolution ? `${what}: ${lowerFirst(inFlags(resolution))}` : `${what}.`;
}

function lowerFirst(s: string): string {
  return /^[A-Z][a-z]/.test(s) ? s[0]!.toLowerCase() + s.slice(1) : s;
}
