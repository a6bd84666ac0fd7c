// The readPost use case: decides what to fetch for the thread/context/replies options and assembles
// the parents, the author's chain and the replies. Pure apart from the injected source.
import { ancestorChain, MAX_PARENTS, type AncestorChain, type AncestorSource } from './ancestors.ts';
import type { ConversationBundle, Post, ReplyNode } from './models.ts';
import { isEarlierVersion, latestVersionId } from './models.ts';
import type { PostRead, PostReadOptions, RepliesOption, ThreadCut } from './reads.ts';
import type { Derived, ReadBudget, ReadPolicy, Sourced } from './sourced.ts';

export interface PostSource extends AncestorSource {
  post(id: string, policy: ReadPolicy, budget?: ReadBudget): Promise<Sourced<Post>>;
  conversation(
    id: string,
    opts: { ranking: 'top' | 'recent'; withReplies: boolean },
    policy: ReadPolicy,
    budget?: ReadBudget,
  ): Promise<Sourced<ConversationBundle>>;
  /**
   * Assembled reads remembered per cached bundle and the options assembly depends on: the in-process cache hands
   * out the same bundle object on every hit, so a hit skips the re-assembly. Absent = assemble every time.
   */
  assembled?: Derived<PostRead>;
  /** A fresh upstream budget for one request, shared by the conversation and the walk above it. */
  budget?(): ReadBudget;
}

export interface PostReadResult {
  read: PostRead;
  cache: Sourced<unknown>['cache'];
  /**
   * False when the read depends on a passing failure (an ancestor that could not be read just now): it must be
   * rendered afresh rather than remembered with the cached entry.
   */
  settled: boolean;
  /**
   * A fallback answered and could not give all of what was asked (no thread, or no replies, from it): an answer
   * shaped by upstream trouble, fine to serve from the cache but not to remember as the final word.
   */
  partial: boolean;
}

/** Whoever reads an earlier version of an edited post is told which one is current. */
function editWarnings(post: Post): string[] {
  return isEarlierVersion(post) ? [`earlier version of an edited post: the latest is ${latestVersionId(post)}`] : [];
}

export async function readPost(
  source: PostSource,
  id: string,
  opts: PostReadOptions,
  policy: ReadPolicy,
): Promise<PostReadResult> {
  if (opts.thread === 'off') {
    const got = await source.post(id, policy);
    return {
      cache: got.cache,
      settled: true,
      partial: false,
      read: {
        requested: got.value,
        parents: [],
        thread: [got.value],
        replies: [],
        repliesMode: 'off',
        source: got.source,
        warnings: [...got.warnings, ...editWarnings(got.value)],
      },
    };
  }

  const wantReplies = opts.context === 'full' && opts.replies !== 'off';
  const budget = source.budget?.();
  const got = await source.conversation(
    id,
    { ranking: opts.replies === 'recent' ? 'recent' : 'top', withReplies: wantReplies },
    policy,
    budget,
  );
  const chain = await ancestorChain(source, got.value, opts.context, policy, budget);
  const bundle = got.value;
  const build = () => assemble(bundle, opts, got.source, chain);
  // Keyed by the bundle and the ancestor chain it was assembled with, and by the whole typed options rather than a
  // hand-picked few: an option added later cannot share a read it changes.
  const read = source.assembled
    ? source.assembled.derive([bundle, chain], { opts, source: got.source }, build)
    : build();
  const partial = bundle.fallback === true && (!bundle.threadAvailable || (wantReplies && !bundle.repliesAvailable));
  const outcome = { cache: got.cache, settled: chain.settled, partial };
  // The memoised read is shared: a read with warnings of its own gets its own copy.
  if (got.warnings.length === 0) return { read, ...outcome };
  return { read: { ...read, warnings: [...got.warnings, ...read.warnings] }, ...outcome };
}

export function assemble(
  bundle: ConversationBundle,
  opts: PostReadOptions,
  source: string,
  chain: AncestorChain = { posts: bundle.ancestors, end: 'root', settled: true },
): PostRead {
  const warnings: string[] = [];
  const { post } = bundle;
  const authorId = post.author.id;
  const sameAuthor = (p: Post) => p.author.id === authorId;

  // The author's chain above the post: the unbroken run of their own posts ending at the direct parent.
  const ancestors = chain.posts;
  let split = ancestors.length;
  while (split > 0 && sameAuthor(ancestors[split - 1]!)) split--;
  const ownAncestors = ancestors.slice(split);
  let otherParents = opts.context === 'full' ? ancestors.slice(0, split) : [];
  const continuations = bundle.continuations.filter(sameAuthor);
  let thread = [...ownAncestors, post, ...continuations];

  warnings.push(...(bundle.notes ?? []));
  let parentsOmitted: number | undefined;
  if (otherParents.length > MAX_PARENTS) {
    parentsOmitted = otherParents.length - MAX_PARENTS;
    otherParents = [otherParents[0]!, ...otherParents.slice(otherParents.length - (MAX_PARENTS - 1))];
  }
  let earlier = chain.end === 'root' ? undefined : chain.end;
  warnings.push(...editWarnings(post));
  if (!bundle.threadAvailable)
    warnings.push(`thread unavailable from ${source}: showing the post and what it could see`);

  const chainIds = new Set(thread.map((p) => p.id));
  let replies: ReplyNode[] = [];
  const repliesMode: RepliesOption = opts.context === 'full' ? opts.replies : 'off';
  if (repliesMode !== 'off') {
    if (!bundle.repliesAvailable) warnings.push(`replies unavailable from ${source}`);
    replies = orderReplies(pruneChain(bundle.replies, chainIds), repliesMode);
  }

  let parents = otherParents;
  let cut: ThreadCut | undefined;
  if (typeof opts.thread === 'number') {
    const limit = opts.thread;
    const before = { parents: parents.length, thread: thread.length, replies: countReplies(replies) };
    const total = before.parents + before.thread + before.replies;
    if (total > limit) {
      const top = parents[0] ?? thread[0];
      const trimmed = trimToBudget(thread, post.id, parents, replies, limit);
      ({ thread, parents, replies } = trimmed);
      // The warning is the presenter's: it names what was left out in a reader's words and links the whole read.
      cut = {
        limit,
        total,
        thread: { kept: thread.length, total: before.thread },
        parents: { kept: parents.length, total: before.parents },
        replies: { kept: countReplies(replies), total: before.replies },
      };
      // With the top of the conversation trimmed away, the markers about what lies above it no longer apply.
      if ((parents[0] ?? thread[0]) !== top) parentsOmitted = earlier = undefined;
    }
  }
  if (earlier === 'unavailable') warnings.push('an earlier post in this conversation is unavailable');
  if (earlier === 'cut_short')
    warnings.push('earlier posts in this conversation were not read: the upstream time ran out');
  if (parentsOmitted) {
    const what = `${parentsOmitted} earlier ${parentsOmitted === 1 ? 'post' : 'posts'}`;
    warnings.push(`${what} of the conversation left out: showing its first post and the ${MAX_PARENTS - 1} nearest`);
  }

  return {
    requested: post,
    parents,
    ...(parentsOmitted ? { parentsOmitted } : {}),
    ...(earlier ? { earlier } : {}),
    thread,
    replies,
    repliesMode,
    source,
    warnings,
    ...(cut ? { cut } : {}),
  };
}

/** Continuations already shown in the chain must not reappear as replies. */
function pruneChain(nodes: ReplyNode[], chainIds: Set<string>): ReplyNode[] {
  const out: ReplyNode[] = [];
  for (const n of nodes) {
    if (chainIds.has(n.post.id)) continue;
    out.push({ post: n.post, children: pruneChain(n.children, chainIds) });
  }
  return out;
}

function orderReplies(nodes: ReplyNode[], mode: 'top' | 'recent'): ReplyNode[] {
  const cmp =
    mode === 'top'
      ? (a: ReplyNode, b: ReplyNode) =>
          (b.post.metrics.likes ?? 0) - (a.post.metrics.likes ?? 0) || a.post.createdAt.localeCompare(b.post.createdAt)
      : (a: ReplyNode, b: ReplyNode) => b.post.createdAt.localeCompare(a.post.createdAt);
  return [...nodes].sort(cmp).map((n) => ({ post: n.post, children: orderReplies(n.children, mode) }));
}

export function countReplies(nodes: ReplyNode[]): number {
  let n = 0;
  for (const node of nodes) n += 1 + countReplies(node.children);
  return n;
}

/**
 * Keeps at most `limit` posts: the requested post first, then the chain from the requested post onwards
 * (reading on is what a thread reader wants), then earlier chain posts, then the nearest parents, then replies.
 */
function trimToBudget(
  thread: Post[],
  requestedId: string,
  parents: Post[],
  replies: ReplyNode[],
  limit: number,
): { thread: Post[]; parents: Post[]; replies: ReplyNode[] } {
  let budget = limit;
  const idx = Math.max(
    0,
    thread.findIndex((p) => p.id === requestedId),
  );
  const after = thread.slice(idx, idx + budget);
  budget -= after.length;
  const beforeCount = Math.min(idx, budget);
  const before = thread.slice(idx - beforeCount, idx);
  budget -= beforeCount;
  const keptParents = budget > 0 ? parents.slice(Math.max(0, parents.length - budget)) : [];
  budget -= keptParents.length;
  return { thread: [...before, ...after], parents: keptParents, replies: takeReplies(replies, { left: budget }) };
}

/** The first `budget.left` replies in rank order (pre-order: a reply before the replies below it). */
export function takeReplies(nodes: ReplyNode[], budget: { left: number }): ReplyNode[] {
  const out: ReplyNode[] = [];
  for (const n of nodes) {
    if (budget.left <= 0) break;
    budget.left--;
    out.push({ post: n.post, children: takeReplies(n.children, budget) });
  }
  return out;
}

export function postCount(read: PostRead): number {
  return read.parents.length + read.thread.length + countReplies(read.replies);
}

/** Estimated bytes an assembled read keeps alive (its posts outlive the bundle while the read is remembered). */
export function assembledSize(read: PostRead): number {
  return 256 + postCount(read) * 1024;
}
