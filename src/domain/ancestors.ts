// The conversation above a post. A provider's bundle may hold all of it (X, FxTwitter's thread), only the
// direct parent (syndication) or nothing (a single-post fallback). The chain is rebuilt by following each
// post's parent id: posts the bundle holds are taken from it, the rest are single-post reads through the
// read path (cached, coalesced, inside the request's budget). An ancestor that cannot be read ends the
// walk; the read still succeeds and says so.
import { isSettledNotFound } from './failures.ts';
import type { ConversationBundle, Post } from './models.ts';
import type { ReadBudget, ReadPolicy, Sourced } from './sourced.ts';

/** Most conversation ancestors shown above the author's own chain: the root and the nearest ones. */
export const MAX_PARENTS = 20;
/** Single-post reads one walk may make; a conversation deeper than this is reported as cut short. */
export const MAX_WALK_READS = 100;

export interface AncestorSource {
  post(id: string, policy: ReadPolicy, budget?: ReadBudget): Promise<Sourced<Post>>;
}

export type ChainEnd =
  /** The root was reached (or the provider's ancestors end there). */
  | 'root'
  /** An ancestor is deleted, protected or could not be read. */
  | 'unavailable'
  /** The request's upstream budget or the walk's read cap ran out first. */
  | 'cut_short';

export interface AncestorChain {
  /** Root (or the highest post reached) first, down to the direct parent. */
  posts: Post[];
  end: ChainEnd;
  /** False when a transient failure shaped the chain, so it must not be reused for later reads. */
  settled: boolean;
}

export type ChainScope = 'full' | 'thread';

const walks = new WeakMap<ConversationBundle, Map<ChainScope, AncestorChain>>();

/**
 * The ancestors of `bundle.post`. `scope: 'thread'` follows only the author's own replies to themselves (the
 * rest of the conversation is not wanted there), so it reads nothing above the first other author.
 * A settled chain is remembered per bundle object, like the assembled reads.
 */
export async function ancestorChain(
  source: AncestorSource,
  bundle: ConversationBundle,
  scope: ChainScope,
  policy: ReadPolicy,
  budget?: ReadBudget,
): Promise<AncestorChain> {
  const known = walks.get(bundle)?.get(scope);
  if (known) return known;
  const chain = await walk(source, bundle, scope, policy, budget);
  if (chain.settled) {
    let byScope = walks.get(bundle);
    if (!byScope) walks.set(bundle, (byScope = new Map<ChainScope, AncestorChain>()));
    byScope.set(scope, chain);
  }
  return chain;
}

async function walk(
  source: AncestorSource,
  bundle: ConversationBundle,
  scope: ChainScope,
  policy: ReadPolicy,
  budget: ReadBudget | undefined,
): Promise<AncestorChain> {
  const { post } = bundle;
  const held = new Map(bundle.ancestors.map((p) => [p.id, p]));
  const used = new Set<string>();
  const up: Post[] = [];
  // X sometimes leaves out the parent's handle and keeps its id: such a parent is read, and kept in the author's
  // own chain only when it turns out to be theirs.
  const follows = (from: Post): boolean =>
    scope === 'full' ||
    from.replyTo?.handle === '' ||
    from.replyTo?.handle.toLowerCase() === post.author.handle.toLowerCase();
  const belongs = (parent: Post): boolean => scope === 'full' || sameAuthor(parent, post);
  const done = (end: ChainEnd, settled = true): AncestorChain => ({ posts: up.reverse(), end, settled });

  let cur = post;
  let reads = 0;
  for (;;) {
    if (!cur.replyTo || !follows(cur)) return done('root');
    const parentId = cur.replyTo.id;
    if (!parentId) {
      // The upstream named the parent's author but not the post: keep whatever it listed above, as listed.
      const rest = bundle.ancestors.filter((p) => !used.has(p.id) && (scope === 'full' || sameAuthor(p, post)));
      up.push(...rest.reverse());
      return done('root');
    }
    if (used.has(parentId) || parentId === post.id) return done('root'); // a loop in bad data
    const fromBundle = held.get(parentId);
    // A single-post source's parent carries no reply fields of its own; re-read it to learn where it leads.
    if (fromBundle && (bundle.threadAvailable || fromBundle.replyTo)) {
      if (!belongs(fromBundle)) return done('root');
      used.add(parentId);
      up.push(fromBundle);
      cur = fromBundle;
      continue;
    }
    if (reads >= MAX_WALK_READS || budget?.expired) return done('cut_short', false);
    reads++;
    try {
      const got = await source.post(parentId, policy, budget);
      if (!belongs(got.value)) return done('root');
      used.add(parentId);
      up.push(got.value);
      cur = got.value;
    } catch (err) {
      // Deleted, protected or missing is a settled fact; anything else may read fine next time.
      return done('unavailable', isSettledNotFound(err));
    }
  }
}

function sameAuthor(a: Post, b: Post): boolean {
  return a.author.id === b.author.id || a.author.handle.toLowerCase() === b.author.handle.toLowerCase();
}
