// Pure translation of X GraphQL envelopes (instructions → entries → modules/items/cursors) into domain
// bundles and pages. Ads, who-to-follow and other injected modules are dropped here.
import type { Author, ConversationBundle, Page, Post, ReplyNode, UnavailablePost } from '../../domain/models.ts';
import { ProviderError, type SearchItem } from '../types.ts';
import { parseTweetResult } from './post.ts';
import { isUser, parseUser } from './user.ts';
import type {
  XCursorType,
  XEntry,
  XEnvelope,
  XGraphqlError,
  XItemContent,
  XModuleContent,
  XTimeline,
  XTimelineCursorItem,
  XTimelineTweet,
  XTimelineUser,
} from './wire.ts';

const PROVIDER = 'x';

/** Injected entries that are not part of the timeline asked for. */
const NOISE_PREFIXES = [
  'who-to-follow-',
  'promoted-tweet-',
  'messageprompt-',
  'module-',
  'tweetdetailrelatedtweets-',
  'superhero-',
  'pivot-',
  'label-',
  'relevanceprompt-',
];

/** Codes that positively say the content is missing, deleted, suspended or protected (Nitter's enum). */
const NOT_FOUND_CODES = new Set([17, 22, 34, 50, 63, 131, 144, 179, 421, 422]);

// ---------------------------------------------------------------------------------------------------------
// Instructions and entries

export interface CollectedTimeline {
  entries: XEntry[];
  pinned: XEntry[];
}

/** Applies a timeline's instructions in order: added, replaced and module-appended entries; pins apart. */
export function collectEntries(tl: XTimeline | undefined): CollectedTimeline {
  const entries: XEntry[] = [];
  const pinned: XEntry[] = [];
  for (const ins of tl?.instructions ?? []) {
    switch (ins.type) {
      case 'TimelineAddEntries':
        entries.push(...(ins.entries ?? []));
        break;
      case 'TimelinePinEntry':
        if (ins.entry) pinned.push(ins.entry);
        break;
      case 'TimelineReplaceEntry': {
        if (!ins.entry) break;
        const at = entries.findIndex((e) => e.entryId === (ins.entry_id_to_replace ?? ins.entry!.entryId));
        if (at >= 0) entries[at] = ins.entry;
        else entries.push(ins.entry);
        break;
      }
      case 'TimelineAddToModule': {
        const items = ins.moduleItems ?? [];
        const target = entries.find((e) => e.entryId === ins.moduleEntryId);
        const mod = target?.content as XModuleContent | undefined;
        if (mod && Array.isArray(mod.items))
          mod.items = ins.prepend ? [...items, ...mod.items] : [...mod.items, ...items];
        else
          entries.push({
            entryId: ins.moduleEntryId ?? 'module-appended',
            content: { entryType: 'TimelineTimelineModule', items },
          });
        break;
      }
      default:
        break;
    }
  }
  return { entries, pinned };
}

function isNoise(entryId: string): boolean {
  return NOISE_PREFIXES.some((p) => entryId.startsWith(p));
}

/** The item contents of an entry: one for an item, several for a module; none for cursors and noise. */
export function itemContents(entry: XEntry): XItemContent[] {
  if (isNoise(entry.entryId)) return [];
  const c = entry.content as { itemContent?: XItemContent; items?: XModuleContent['items'] };
  if (c.itemContent) return [c.itemContent];
  if (Array.isArray(c.items)) return c.items.map((i) => i.item?.itemContent).filter((x): x is XItemContent => !!x);
  return [];
}

function asTweetItem(ic: XItemContent): XTimelineTweet | undefined {
  const t = ic as XTimelineTweet;
  if (t.itemType !== 'TimelineTweet' && t.__typename !== 'TimelineTweet') return undefined;
  return t.promotedMetadata ? undefined : t;
}

function asUserItem(ic: XItemContent): XTimelineUser | undefined {
  const u = ic as XTimelineUser;
  return u.itemType === 'TimelineUser' || u.__typename === 'TimelineUser' ? u : undefined;
}

/** A cursor may sit in the entry content (timelines) or in an item (TweetDetail, module show-more). */
export function findCursor(entries: XEntry[], type: XCursorType): string | undefined {
  for (const e of entries) {
    const c = e.content as {
      cursorType?: string;
      value?: string;
      itemContent?: XTimelineCursorItem;
      items?: XModuleContent['items'];
    };
    if (c.cursorType === type && c.value) return c.value;
    if (c.itemContent?.cursorType === type && c.itemContent.value) return c.itemContent.value;
  }
  return undefined;
}

export function postsOf(contents: XItemContent[]): (Post | UnavailablePost)[] {
  const out: (Post | UnavailablePost)[] = [];
  for (const ic of contents) {
    const t = asTweetItem(ic);
    const p = t ? parseTweetResult(t.tweet_results?.result) : undefined;
    if (p) out.push(p);
  }
  return out;
}

export function readable(p: Post | UnavailablePost | undefined): p is Post {
  return !!p && !('unavailable' in p);
}

// ---------------------------------------------------------------------------------------------------------
// Errors

/**
 * The ProviderError an envelope's `errors[]` stands for when the expected data is absent:
 * not_found for missing/deleted/suspended/protected content, error for anything else (bad request,
 * DeadlineExceeded, LoadShed...). Undefined when there are no errors.
 */
export function contentError(env: XEnvelope, what: string): ProviderError | undefined {
  const errors = env.errors ?? [];
  if (errors.length === 0) return undefined;
  const first = errors[0]!;
  const msg = describe(first);
  if (errors.some(isNotFound)) return new ProviderError(PROVIDER, 'not_found', `${what}: ${msg}`);
  return new ProviderError(PROVIDER, 'error', `${what}: ${msg}`);
}

function isNotFound(e: XGraphqlError): boolean {
  const code = e.code ?? e.extensions?.code;
  if (code !== undefined && NOT_FOUND_CODES.has(code)) return true;
  return /^_Missing|No status found|not found/i.test(e.message ?? '');
}

function describe(e: XGraphqlError): string {
  const code = e.code ?? e.extensions?.code;
  return `${e.message ?? e.name ?? 'GraphQL error'}${code !== undefined ? ` (code ${code})` : ''}`;
}

export function missing(env: XEnvelope, what: string, fallback: ProviderError): ProviderError {
  return contentError(env, what) ?? fallback;
}

// ---------------------------------------------------------------------------------------------------------
// TweetDetail

interface ConversationParts {
  focal?: Post | UnavailablePost;
  ancestors: Post[];
  /** Posts of each reply module, in module order (conversationthread-*), plus loose tweet- entries after the focal. */
  threads: Post[][];
  cursor?: string;
}

function readConversation(env: XEnvelope, focalId: string): ConversationParts {
  const tl = env.data?.threaded_conversation_with_injections_v2;
  const { entries } = collectEntries(tl);
  const parts: ConversationParts = { ancestors: [], threads: [] };
  for (const e of entries) {
    if (e.entryId.startsWith('tweet-')) {
      const [p] = postsOf(itemContents(e));
      const isFocal = e.entryId === `tweet-${focalId}` || (readable(p) && p.id === focalId);
      if (isFocal) parts.focal = p ?? parts.focal;
      else if (!readable(p)) continue;
      else if (!parts.focal) parts.ancestors.push(p);
      else parts.threads.push([p]);
    } else if (e.entryId.startsWith('conversationthread-')) {
      const posts = postsOf(itemContents(e)).filter(readable);
      if (posts.length > 0) parts.threads.push(posts);
    }
  }
  parts.cursor = findCursor(entries, 'Bottom') ?? findCursor(entries, 'ShowMoreThreads');
  return parts;
}

/** The author's own chain right below the focal post: same author, each replying to the previous one. */
function takeContinuations(focal: Post, threads: Post[][]): { continuations: Post[]; rest: Post[][] } {
  const first = threads[0];
  if (!first) return { continuations: [], rest: threads };
  const continuations: Post[] = [];
  let prev = focal.id;
  for (const p of first) {
    if (p.author.id !== focal.author.id || p.replyTo?.id !== prev) break;
    continuations.push(p);
    prev = p.id;
  }
  if (continuations.length === 0) return { continuations, rest: threads };
  return { continuations, rest: [first.slice(continuations.length), ...threads.slice(1)] };
}

/**
 * Nests reply modules into a tree. A module is one visible chain: its first post answers the focal post,
 * each next one usually answers the one before. Parents are matched by `in_reply_to_status_id`; a reply
 * whose parent X left out hangs under the previous post of its module.
 */
function nestReplies(rootId: string, threads: Post[][], excluded: ReadonlySet<string>): ReplyNode[] {
  const roots: ReplyNode[] = [];
  const byId = new Map<string, ReplyNode>();
  for (const chain of threads) {
    let prev: ReplyNode | undefined;
    for (const post of chain) {
      if (byId.has(post.id)) continue;
      const parentId = post.replyTo?.id;
      if (parentId !== undefined && excluded.has(parentId)) {
        prev = undefined;
        continue;
      }
      const node: ReplyNode = { post, children: [] };
      const parent = parentId === undefined || parentId === rootId ? undefined : (byId.get(parentId) ?? prev);
      if (parent) parent.children.push(node);
      else roots.push(node);
      byId.set(post.id, node);
      prev = node;
    }
  }
  return roots;
}

export interface ConversationPage {
  bundle: ConversationBundle;
  /** Raw X cursor for more replies (TweetDetail `cursor` variable). */
  nextCursor?: string;
}

export function parseConversation(env: XEnvelope, focalId: string): ConversationPage {
  const parts = readConversation(env, focalId);
  const focal = parts.focal;
  if (!focal) {
    throw missing(
      env,
      `post ${focalId}`,
      new ProviderError(PROVIDER, 'not_found', `post ${focalId} is not in the conversation X returned`),
    );
  }
  if ('unavailable' in focal) {
    throw new ProviderError(
      PROVIDER,
      'not_found',
      `post ${focalId} is ${focal.reason}${focal.message ? `: ${focal.message}` : ''}`,
    );
  }
  const { continuations, rest } = takeContinuations(focal, parts.threads);
  const excluded = new Set(continuations.map((p) => p.id));
  const bundle: ConversationBundle = {
    post: focal,
    ancestors: parts.ancestors,
    continuations,
    replies: nestReplies(focal.id, rest, excluded),
    repliesAvailable: true,
    threadAvailable: true,
  };
  return { bundle, ...(parts.cursor ? { nextCursor: parts.cursor } : {}) };
}

/** A follow-up page of replies (TweetDetail called with a cursor carries only reply modules). */
export function parseReplyPage(env: XEnvelope, focalId: string): Page<ReplyNode> {
  if (!env.data?.threaded_conversation_with_injections_v2) {
    throw missing(
      env,
      `replies of ${focalId}`,
      new ProviderError(PROVIDER, 'error', 'X answered without a conversation timeline'),
    );
  }
  const parts = readConversation(env, focalId);
  const items = nestReplies(focalId, parts.threads, new Set());
  return { items, ...(parts.cursor ? { nextCursor: parts.cursor } : {}) };
}

// ---------------------------------------------------------------------------------------------------------
// Users, user timelines, follow lists, search

export function parseProfile(env: XEnvelope, handle: string): Author {
  return parseUserResult(env, `@${handle}`);
}

/** UserByScreenName and UserByRestId answer the same `data.user.result`; `who` names the account asked for. */
export function parseUserResult(env: XEnvelope, who: string): Author {
  const result = env.data?.user?.result;
  if (!result) {
    throw missing(env, who, new ProviderError(PROVIDER, 'not_found', `X has no account ${who}`));
  }
  if (result.__typename === 'UserUnavailable') {
    const why = result.message ?? result.reason ?? 'unavailable';
    throw new ProviderError(PROVIDER, 'not_found', `${who} is unavailable: ${why}`);
  }
  const author = parseUser(result);
  // A protected account comes back as a bare User with error 22 beside it: the error says what happened.
  if (!author)
    throw missing(env, who, new ProviderError(PROVIDER, 'error', `X answered with an unreadable user for ${who}`));
  return author;
}

function userTimeline(env: XEnvelope, what: string): XTimeline {
  const result = env.data?.user?.result;
  if (result && result.__typename === 'UserUnavailable') {
    throw new ProviderError(
      PROVIDER,
      'not_found',
      `${what}: account unavailable${result.reason ? ` (${result.reason})` : ''}`,
    );
  }
  const tl = result?.timeline?.timeline ?? result?.timeline_v2?.timeline;
  if (!tl) throw missing(env, what, new ProviderError(PROVIDER, 'error', `${what}: X answered without a timeline`));
  return tl;
}

/** UserTweets page: newest first, pinned post left out (it is not "recent"), reposts and replies kept. */
export function parseTimelinePage(env: XEnvelope): Page<Post> {
  const { entries } = collectEntries(userTimeline(env, 'profile timeline'));
  const seen = new Set<string>();
  const items: Post[] = [];
  for (const e of entries) {
    if (
      !e.entryId.startsWith('tweet-') &&
      !e.entryId.startsWith('profile-conversation-') &&
      !e.entryId.startsWith('profile-grid-')
    )
      continue;
    for (const p of postsOf(itemContents(e))) {
      if (readable(p) && !seen.has(p.id)) {
        seen.add(p.id);
        items.push(p);
      }
    }
  }
  return withCursor(items, findCursor(entries, 'Bottom'));
}

/** Followers / Following page: `user-{id}` entries; unavailable (suspended) accounts are skipped. */
export function parseUserPage(env: XEnvelope): Page<Author> {
  const { entries } = collectEntries(userTimeline(env, 'account list'));
  return withCursor(usersOf(entries), findCursor(entries, 'Bottom'));
}

export function usersOf(entries: XEntry[]): Author[] {
  const out: Author[] = [];
  const seen = new Set<string>();
  for (const e of entries) {
    for (const ic of itemContents(e)) {
      const u = asUserItem(ic)?.user_results?.result;
      const a = isUser(u) ? parseUser(u) : undefined;
      if (a && !seen.has(a.id)) {
        seen.add(a.id);
        out.push(a);
      }
    }
  }
  return out;
}

export interface SearchPage extends Page<SearchItem> {
  /** Results X returned before the media-kind filter; 0 means X has nothing more. */
  scanned: number;
}

/**
 * SearchTimeline page. `users` reads TimelineUser items (People product); posts come from items and grid
 * modules (Media product), optionally kept only when they carry the asked media kind (gifs count as video).
 */
export function parseSearchPage(env: XEnvelope, kind: 'posts' | 'users', mediaKind?: 'photo' | 'video'): SearchPage {
  const tl = env.data?.search_by_raw_query?.search_timeline?.timeline;
  if (!tl) throw missing(env, 'search', new ProviderError(PROVIDER, 'error', 'X answered without a search timeline'));
  const { entries } = collectEntries(tl);
  const cursor = findCursor(entries, 'Bottom');
  if (kind === 'users') {
    const users = usersOf(entries).map((user): SearchItem => ({ kind: 'user', user }));
    return { ...withCursor(users, cursor), scanned: users.length };
  }
  const seen = new Set<string>();
  const items: SearchItem[] = [];
  for (const e of entries) {
    for (const p of postsOf(itemContents(e))) {
      if (!readable(p) || seen.has(p.id)) continue;
      seen.add(p.id);
      if (mediaKind && !p.media.some((m) => (mediaKind === 'photo' ? m.kind === 'photo' : m.kind !== 'photo')))
        continue;
      items.push({ kind: 'post', post: p });
    }
  }
  return { ...withCursor(items, cursor), scanned: seen.size };
}

export function withCursor<T>(items: T[], cursor: string | undefined): Page<T> {
  return cursor ? { items, nextCursor: cursor } : { items };
}
