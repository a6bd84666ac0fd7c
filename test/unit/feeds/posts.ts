// Small hand-built posts for the feed unit tests.
import type { Author, Post } from '../../../src/domain/models.ts';

export function author(handle: string, name = handle): Author {
  return { id: `id-${handle}`, handle, name };
}

export function post(id: string, handle: string, minute: number, extra: Partial<Post> = {}): Post {
  return {
    id,
    url: `https://x.com/${handle}/status/${id}`,
    author: author(handle),
    createdAt: new Date(Date.UTC(2026, 2, 2, 9, minute)).toISOString(),
    text: `post ${id}`,
    segments: [],
    media: [],
    metrics: {},
    ...extra,
  };
}

export function repost(by: string, original: Post): Post {
  return { ...post(original.id, by, 0), createdAt: original.createdAt, text: '', repostOf: original };
}
