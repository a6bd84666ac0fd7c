// An archive's self-threads, put together whatever order its files list the posts in. A first pass over the
// archive notes, for each post the import keeps, only its id and (for a continuation of the owner's own thread)
// the id of the post it continues: tens of bytes a post, never the posts. From that, each thread's first post and
// length are known, so the second pass holds a thread's posts only until the last of them has been read.
import type { Post } from '../domain/models.ts';

const oldestFirst = (a: Post, b: Post) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.id < b.id ? -1 : 1);

export class ThreadIndex {
  /** Ids of the posts kept, each once. */
  private readonly ids = new Set<string>();
  /** A continuation → the post it continues (the owner's replies to its own posts only). */
  private readonly parents = new Map<string, string>();
  /** After `seal`: a thread's member → its first post kept; and each first post → the thread's length. */
  private readonly rootOf = new Map<string, string>();
  private readonly lengths = new Map<string, number>();

  /** Notes a kept post; false when the id was seen already (a post listed twice is imported once). */
  add(id: string, continues: string | undefined): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (continues !== undefined) this.parents.set(id, continues);
    return true;
  }

  get size(): number {
    return this.ids.size;
  }

  /**
   * Works out the threads once every post is noted: a continuation whose post is not kept (deleted, outside the
   * window) starts its thread in this import.
   */
  seal(): void {
    const rootOf = (id: string): string => {
      const known = this.rootOf.get(id);
      if (known !== undefined) return known;
      const chain: string[] = [];
      let at = id;
      for (;;) {
        const up = this.parents.get(at);
        if (up === undefined || !this.ids.has(up) || chain.length > this.parents.size) break;
        chain.push(at);
        at = up;
        const cached = this.rootOf.get(at);
        if (cached !== undefined) {
          at = cached;
          break;
        }
      }
      for (const c of chain) this.rootOf.set(c, at);
      return at;
    };
    for (const child of this.parents.keys()) {
      if (!this.ids.has(this.parents.get(child)!)) continue;
      rootOf(child);
    }
    for (const root of this.rootOf.values()) this.lengths.set(root, (this.lengths.get(root) ?? 1) + 1);
    this.parents.clear();
  }

  /** Whether the second pass should take this post (false for the second listing of a post). */
  take(id: string): boolean {
    return this.ids.delete(id);
  }

  /** The first post of the thread `id` belongs to, and the thread's length; undefined for a post alone. */
  threadOf(id: string): { root: string; length: number } | undefined {
    const root = this.rootOf.get(id) ?? id;
    const length = this.lengths.get(root);
    return length === undefined ? undefined : { root, length };
  }
}

/** Holds each thread's posts until the last of them is read; answers threads oldest post first. */
export class ThreadAssembler {
  private readonly open = new Map<string, Post[]>();

  constructor(private readonly index: ThreadIndex) {}

  /** Takes the next post; answers the threads it completes (a post alone is a thread of one). */
  add(post: Post): Post[][] {
    const thread = post.repostOf ? undefined : this.index.threadOf(post.id);
    if (!thread) return [[post]];
    const posts = this.open.get(thread.root) ?? [];
    posts.push(post);
    if (posts.length < thread.length) {
      this.open.set(thread.root, posts);
      return [];
    }
    this.open.delete(thread.root);
    return [posts.sort(oldestFirst)];
  }

  /** Threads that never completed (a post the first pass counted that the second could not read). */
  drain(): Post[][] {
    const rest = [...this.open.values()].map((p) => p.sort(oldestFirst));
    this.open.clear();
    return rest;
  }
}
