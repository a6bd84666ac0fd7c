// The corpus gaining posts while the simulator runs (POST /__sim/posts): a new post by an account, optionally a
// reply in a conversation, placed on the author's timeline and under its parent, where search finds it too. Tests
// use it to make a watched source change.
import type { SimCorpus, SimPost } from './corpus-types.ts';

export interface NewSimPost {
  /** Handle of an account of the corpus. */
  author: string;
  text: string;
  /** Id of the post this one answers (a conversation grows). */
  replyTo?: string;
}

/** Ids of grown posts: above every seeded id, increasing, so a newer post always has a greater id. */
let nextId = 1900000000100000000n;

/** A post with nothing but its text and place: no media, no counts, English, from the web app. */
export function plainPost(
  p: Pick<SimPost, 'id' | 'authorId' | 'createdAt' | 'text' | 'replyPrefix' | 'conversationId'> & Partial<SimPost>,
): SimPost {
  return {
    media: [],
    likes: 0,
    reposts: 0,
    quotes: 0,
    views: 0,
    bookmarks: 0,
    lang: 'en',
    source: 'Twitter Web App',
    sensitive: false,
    deleted: false,
    ...p,
  };
}

export function appendPost(c: SimCorpus, input: NewSimPost): SimPost | string {
  const author = c.usersByHandle.get(input.author.toLowerCase());
  if (!author) return `unknown author ${input.author}`;
  if (typeof input.text !== 'string' || input.text.length === 0) return 'text must be a non-empty string';
  const parent = input.replyTo === undefined ? undefined : c.posts.get(input.replyTo);
  if (input.replyTo !== undefined && !parent) return `unknown post ${input.replyTo}`;
  nextId += 1n;
  const id = String(nextId);
  const parentAuthor = parent ? c.users.get(parent.authorId) : undefined;
  const post = plainPost({
    id,
    authorId: author.id,
    createdAt: Date.now(),
    text: input.text,
    replyPrefix: parentAuthor && parentAuthor.id !== author.id ? [parentAuthor.handle] : [],
    ...(parent ? { replyToId: parent.id } : {}),
    conversationId: parent ? parent.conversationId : id,
  });
  c.posts.set(id, post);
  c.timelines.set(author.id, [{ postId: id, at: post.createdAt }, ...(c.timelines.get(author.id) ?? [])]);
  if (parent) c.children.set(parent.id, [...(c.children.get(parent.id) ?? []), id]);
  author.statuses += 1;
  return post;
}
