// An in-memory ListSource for the use-case tests: pages of fixed lists behind raw upstream cursors (`c<offset>`),
// with every call recorded, so paging and the use cases run without a server, a cache or a provider.
import type { ListSource, ListSources } from '../../../src/domain/lists.ts';
import type { Author, CuratedList, Page, Post } from '../../../src/domain/models.ts';
import type { PageCall } from '../../../src/domain/paging.ts';
import type { SearchItem } from '../../../src/domain/capabilities.ts';
import type { ReadPolicy, Sourced } from '../../../src/domain/sourced.ts';
import { notFound, upstreamFailed } from './failures.ts';
import { AesGcmCursorSealer } from '../../../src/secrets/cursor-sealer.ts';
import { FREE_PAYER } from '../../helpers/payer.ts';

export const POLICY: ReadPolicy = { mode: 'shared', payer: FREE_PAYER };

export interface Call {
  method: string;
  handle?: string;
  provider?: string;
  cursor?: string;
  count?: number;
}

/** Pages of `call.count` items; the raw upstream cursor `c<n>` continues at offset n. */
export function pageOf<T>(items: T[], call: PageCall, source = 'fake', endCursor?: 'repeat'): Sourced<Page<T>> {
  const start = call.cursor ? Number(call.cursor.slice(1)) : 0;
  const slice = items.slice(start, start + call.count);
  const more = start + call.count < items.length;
  const nextCursor = more ? `c${start + call.count}` : endCursor === 'repeat' ? call.cursor : undefined;
  return {
    value: { items: slice, ...(nextCursor ? { nextCursor } : {}) },
    source: call.provider ?? source,
    cache: 'miss',
    warnings: [],
  };
}

export interface FakeData {
  profiles?: Record<string, Author>;
  timelines?: Record<string, Post[]>;
  followers?: Record<string, Author[]>;
  following?: Record<string, Author[]>;
  search?: SearchItem[];
  /** Handles whose connection lists fail upstream (as a missing account's often do). */
  failingLists?: string[];
  /** X Lists by id, with their posts and members. */
  curated?: Record<string, { list: CuratedList; posts: Post[]; members: Author[] }>;
}

export function fakeLists(data: FakeData): { lists: ListSource; calls: Call[] } {
  const calls: Call[] = [];
  const record = (method: string, handle: string | undefined, call?: PageCall) =>
    calls.push({
      method,
      ...(handle ? { handle } : {}),
      ...(call ? { provider: call.provider, cursor: call.cursor, count: call.count } : {}),
    });
  const lists: ListSource = {
    async profile(handle) {
      record('profile', handle);
      const author = data.profiles?.[handle.toLowerCase()];
      if (!author) throw notFound(`@${handle} is not public.`);
      return { value: author, source: 'fake', cache: 'hit', warnings: [] };
    },
    async profileById(id) {
      record('profileById', id);
      const author = Object.values(data.profiles ?? {}).find((a) => a.id === id);
      if (!author) throw notFound(`account ${id} is not public.`);
      return { value: author, source: 'fake', cache: 'hit', warnings: [] };
    },
    async timeline(handle, call) {
      record('timeline', handle, call);
      return pageOf(data.timelines?.[handle.toLowerCase()] ?? [], call);
    },
    async connections(kind, handle, call) {
      record(kind, handle, call);
      if (data.failingLists?.includes(handle)) throw upstreamFailed();
      return pageOf(data[kind]?.[handle.toLowerCase()] ?? [], call);
    },
    async search(q, feed, call) {
      record(`search:${feed}:${q}`, undefined, call);
      return pageOf(data.search ?? [], call);
    },
    async list(id) {
      record('list', id);
      const l = data.curated?.[id];
      if (!l) throw notFound(`list ${id} is not public.`);
      return { value: l.list, source: 'fake', cache: 'hit', warnings: [] };
    },
    async listPosts(id, call) {
      record('listPosts', id, call);
      // An upstream answers a missing list's timeline with an error, not an empty page.
      if (!data.curated?.[id]) throw upstreamFailed();
      return pageOf(data.curated[id].posts, call);
    },
    async listMembers(id, call) {
      record('listMembers', id, call);
      if (!data.curated?.[id]) throw upstreamFailed();
      return pageOf(data.curated[id].members, call);
    },
  };
  return { lists, calls };
}

export function sources(data: FakeData): ListSources & { calls: Call[] } {
  const { lists, calls } = fakeLists(data);
  return { lists, cursors: new AesGcmCursorSealer('use-case tests'), calls };
}
