// Read-only questions about the corpus that several wire formats share: thread walks, reply trees,
// timelines, search and follower lists. Visibility rules (deleted, protected, suspended) live here once.
import type { SimCorpus, SimList, SimPost, SimTimelineEntry, SimUser } from './corpus-types.ts';

export type Visibility = 'ok' | 'missing' | 'deleted' | 'protected' | 'suspended';

export function visibility(c: SimCorpus, id: string): Visibility {
  const p = c.posts.get(id);
  if (!p) return 'missing';
  if (p.deleted) return 'deleted';
  const author = c.users.get(p.authorId);
  if (author?.suspended) return 'suspended';
  if (author?.protected) return 'protected';
  return 'ok';
}

/** X shows only the latest version of an edited post in timelines and search; earlier ones stay readable by id. */
export const isSupersededVersion = (p: SimPost): boolean => !!p.editVersions && p.editVersions.at(-1) !== p.id;

/** The edit_control object X's GraphQL and syndication send: flat on the original, nested on later versions. */
export function editControl(p: SimPost): Record<string, unknown> {
  const versions = p.editVersions ?? [p.id];
  const initial = {
    edit_tweet_ids: versions,
    editable_until_msecs: String(p.createdAt + 3_600_000),
    is_edit_eligible: true,
    edits_remaining: String(Math.max(0, 6 - versions.length)),
  };
  return versions[0] === p.id ? initial : { initial_tweet_id: versions[0], edit_control_initial: initial };
}

export const authorOf = (c: SimCorpus, p: SimPost): SimUser => c.users.get(p.authorId)!;

export function findUser(c: SimCorpus, handleOrId: string): SimUser | undefined {
  const byId = /^id:(\d+)$/i.exec(handleOrId.trim());
  if (byId) return c.users.get(byId[1]!);
  return c.usersByHandle.get(handleOrId.trim().replace(/^@/, '').toLowerCase());
}

/** Ancestor ids from the conversation root down to the direct parent (ids of deleted posts included). */
export function ancestorIds(c: SimCorpus, id: string): string[] {
  const out: string[] = [];
  let cur = c.posts.get(id)?.replyToId;
  while (cur) {
    out.unshift(cur);
    cur = c.posts.get(cur)?.replyToId;
  }
  return out;
}

/** The author's own follow-ups: at each step the earliest self-reply, as X's thread walk does. */
export function continuationIds(c: SimCorpus, id: string): string[] {
  const post = c.posts.get(id);
  if (!post) return [];
  const out: string[] = [];
  let cur = id;
  for (;;) {
    const next = (c.children.get(cur) ?? []).find((k) => {
      const kid = c.posts.get(k);
      return kid && kid.authorId === post.authorId && visibility(c, k) === 'ok';
    });
    if (!next) return out;
    out.push(next);
    cur = next;
  }
}

export const replyCount = (c: SimCorpus, id: string): number => c.children.get(id)?.length ?? 0;

/**
 * Reply modules below `id`, in the order X's TweetDetail lists them: the author's own continuation
 * first, then the other top-level replies by likes (`likes`) or newest first (`recency`). Each module is
 * a top-level reply followed by its descendants (depth-first, oldest first, at most 3 levels deep).
 */
export function replyModules(c: SimCorpus, id: string, mode: 'likes' | 'recency'): string[][] {
  const root = c.posts.get(id);
  if (!root) return [];
  const kids = (c.children.get(id) ?? []).filter((k) => visibility(c, k) === 'ok').map((k) => c.posts.get(k)!);
  const continuation = kids.filter((k) => k.authorId === root.authorId).sort((a, b) => a.createdAt - b.createdAt)[0];
  const others = kids.filter((k) => k !== continuation);
  others.sort(
    mode === 'likes' ? (a, b) => b.likes - a.likes || b.createdAt - a.createdAt : (a, b) => b.createdAt - a.createdAt,
  );
  const module = (p: SimPost): string[] => {
    const out: string[] = [];
    const walk = (q: SimPost, depth: number) => {
      out.push(q.id);
      if (depth >= 3) return;
      const sub = (c.children.get(q.id) ?? []).filter((k) => visibility(c, k) === 'ok').map((k) => c.posts.get(k)!);
      sub.sort((a, b) => a.createdAt - b.createdAt).forEach((s) => walk(s, depth + 1));
    };
    walk(p, 1);
    return out;
  };
  return [...(continuation ? [continuation] : []), ...others].map(module);
}

/** Profile timeline rows, newest first; replies to other people only with `withReplies`. */
export function timeline(c: SimCorpus, user: SimUser, withReplies: boolean): SimTimelineEntry[] {
  return (c.timelines.get(user.id) ?? []).filter((e) => {
    if (visibility(c, e.postId) !== 'ok') return false;
    if (e.repostedBy || withReplies) return true;
    const p = c.posts.get(e.postId)!;
    const parent = p.replyToId ? c.posts.get(p.replyToId) : undefined;
    return !parent || parent.authorId === p.authorId;
  });
}

export type SearchFeed = 'latest' | 'top' | 'media';

/**
 * The search operators X documents and threadmark sends: `from:handle`, `since:YYYY-MM-DD` / `until:YYYY-MM-DD`
 * (UTC midnight) and `since_time:` / `until_time:` (Unix seconds); until is exclusive. The other words are
 * matched as one phrase, case-insensitively, as before.
 */
interface SearchFilter {
  phrase: string;
  from?: string;
  /** `quoted_tweet_id:<id>`: the posts quoting that post. */
  quotes?: string;
  sinceMs?: number;
  untilMs?: number;
}

function parseSearch(q: string): SearchFilter {
  const f: SearchFilter = { phrase: '' };
  const words: string[] = [];
  for (const word of q.trim().split(/\s+/)) {
    const m = /^(from|since|until|since_time|until_time|quoted_tweet_id):(\S+)$/i.exec(word);
    const key = m?.[1]!.toLowerCase();
    const value = m?.[2] ?? '';
    const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : NaN;
    const secs = /^\d{1,12}$/.test(value) ? Number(value) * 1000 : NaN;
    if (key === 'from') f.from = value.replace(/^@/, '').toLowerCase();
    else if (key === 'quoted_tweet_id') f.quotes = value;
    else if (key === 'since' && !Number.isNaN(day)) f.sinceMs = day;
    else if (key === 'until' && !Number.isNaN(day)) f.untilMs = day;
    else if (key === 'since_time' && !Number.isNaN(secs)) f.sinceMs = secs;
    else if (key === 'until_time' && !Number.isNaN(secs)) f.untilMs = secs;
    else words.push(word);
  }
  f.phrase = words.join(' ').toLowerCase();
  return f;
}

export function search(c: SimCorpus, q: string, feed: SearchFeed): SimPost[] {
  const f = parseSearch(q);
  const hits = [...c.posts.values()].filter(
    (p) =>
      visibility(c, p.id) === 'ok' &&
      !isSupersededVersion(p) &&
      p.text.toLowerCase().includes(f.phrase) &&
      (f.from === undefined || c.users.get(p.authorId)?.handle.toLowerCase() === f.from) &&
      (f.quotes === undefined || p.quoteId === f.quotes) &&
      (f.sinceMs === undefined || p.createdAt >= f.sinceMs) &&
      (f.untilMs === undefined || p.createdAt < f.untilMs) &&
      (feed !== 'media' || p.media.length > 0),
  );
  if (feed === 'top') return hits.sort((a, b) => b.likes - a.likes || b.createdAt - a.createdAt);
  return hits.sort((a, b) => b.createdAt - a.createdAt);
}

export function relationship(c: SimCorpus, user: SimUser, kind: 'followers' | 'following'): SimUser[] {
  const ids = (kind === 'followers' ? c.followers : c.following).get(user.id) ?? [];
  // X lists the most recent follows first.
  return ids.map((id) => c.users.get(id)!).reverse();
}

/** An X List's timeline: its members' posts and reposts (replies included, as X shows them), newest first. */
export function listTimeline(c: SimCorpus, list: SimList): SimTimelineEntry[] {
  return list.memberIds
    .flatMap((id) => (c.users.get(id)?.protected ? [] : timeline(c, c.users.get(id)!, true)))
    .sort((x, y) => y.at - x.at || (x.postId < y.postId ? 1 : -1));
}

/** The accounts that reposted a post, most recent first (as X's Retweeters lists them). */
export function reposters(c: SimCorpus, postId: string): SimUser[] {
  const found: { user: SimUser; at: number }[] = [];
  for (const [userId, entries] of c.timelines) {
    const e = entries.find((x) => x.postId === postId && x.repostedBy === userId);
    const user = c.users.get(userId);
    if (e && user && !user.suspended && !user.protected) found.push({ user, at: e.at });
  }
  return found.sort((x, y) => y.at - x.at).map((x) => x.user);
}

/** A profile tab: its own visible posts with photos or videos (media) or its Articles, newest first. */
export function profileTab(c: SimCorpus, user: SimUser, tab: 'media' | 'articles'): SimPost[] {
  return (c.timelines.get(user.id) ?? [])
    .filter((e) => !e.repostedBy && visibility(c, e.postId) === 'ok')
    .map((e) => c.posts.get(e.postId)!)
    .filter((p) => (tab === 'media' ? p.media.length > 0 : p.article !== undefined));
}
