// Lists hanging off one post or one profile tab: the posts quoting a post, the accounts that reposted it, and a
// profile's media tab. Each is paged like every list; what the list hangs off (the post, the profile) is read
// alongside the first page, because upstreams answer a missing post or account with an error or an empty page
// alike, and only its own answer says what is a 404.
import type { Author, Page, Post } from './models.ts';
import type { CursorSealer } from './cursors.ts';
import { isNotFound } from './failures.ts';
import type { Listed, PageInput } from './lists.ts';
import { readPage, type PageCall, type ReadPage } from './paging.ts';
import type { ListMeta } from './reads.ts';
import type { ReadPolicy, Sourced } from './sourced.ts';

/** The sources of these reads: the lists themselves, and the post or profile each hangs off. */
export interface TabSource {
  quotes(id: string, call: PageCall): Promise<Sourced<Page<Post>>>;
  reposts(id: string, call: PageCall): Promise<Sourced<Page<Author>>>;
  media(handle: string, call: PageCall): Promise<Sourced<Page<Post>>>;
  articles(handle: string, call: PageCall): Promise<Sourced<Page<Post>>>;
}

export interface TabSources {
  tabs: TabSource;
  cursors: CursorSealer;
  /** The post a quotes or reposts list hangs off (cached: the post route reads the same). */
  post(id: string, policy: ReadPolicy): Promise<Sourced<Post>>;
  /** The profile a tab hangs off (cached: the profile route reads the same). */
  profile(handle: string, policy: ReadPolicy): Promise<Sourced<Author>>;
}

/** The posts quoting a post, newest first. */
export interface QuotesRead extends ListMeta {
  /** The quoted post. */
  post: Post;
  posts: Post[];
}

/** The accounts that reposted a post. */
export interface RepostsRead extends ListMeta {
  post: Post;
  items: Author[];
}

/** A profile tab: `media` (its posts with photos or videos) or `articles` (its X Articles). */
export type ProfileTab = 'media' | 'articles';

/** A page of a profile tab, newest first. */
export interface ProfileTabRead extends ListMeta {
  tab: ProfileTab;
  profile: Author;
  posts: Post[];
}

export interface PostListInput extends PageInput {
  /** The post's id (the route has checked it can exist). */
  id: string;
}

export interface TabInput extends PageInput {
  handle: string;
  tab: ProfileTab;
}

/** One page, with the subject (post or profile) read alongside the first upstream page. */
async function pageWithSubject<S, T>(
  cursors: CursorSealer,
  route: string,
  query: string,
  input: PageInput,
  policy: ReadPolicy,
  subject: (policy: ReadPolicy) => Promise<Sourced<S>>,
  load: (call: PageCall) => Promise<Sourced<Page<T>>>,
): Promise<ReadPage<T> & { subject: S }> {
  let found: S | undefined;
  const page = await readPage(cursors, { route, query, feed: '' }, input, policy, async (call) => {
    if (found !== undefined) return load(call);
    const [about, first] = await Promise.allSettled([subject(call.policy), load(call)]);
    if (about.status === 'rejected') {
      if (isNotFound(about.reason) || first.status === 'fulfilled') throw about.reason;
      throw first.reason;
    }
    if (first.status === 'rejected') throw first.reason;
    found = about.value.value;
    return first.value;
  });
  if (found === undefined) throw new Error('the subject is read with the first page');
  return { ...page, subject: found };
}

/** A page of a list hanging off a post, with the post. */
function postPage<T>(
  src: TabSources,
  route: 'quotes' | 'reposts',
  input: PostListInput,
  policy: ReadPolicy,
  load: (call: PageCall) => Promise<Sourced<Page<T>>>,
) {
  return pageWithSubject(src.cursors, route, input.id, input, policy, (p) => src.post(input.id, p), load);
}

export async function readQuotes(
  src: TabSources,
  input: PostListInput,
  policy: ReadPolicy,
): Promise<Listed<QuotesRead>> {
  const got = await postPage(src, 'quotes', input, policy, (call) => src.tabs.quotes(input.id, call));
  // A quote of a quote of this post is not a quote of it: keep only the posts whose quoted post is this one.
  const posts = got.items.filter((p) => !p.quote || p.quote.id === input.id);
  return { read: { post: got.subject, posts, ...got.meta }, cache: got.cache };
}

export async function readReposts(
  src: TabSources,
  input: PostListInput,
  policy: ReadPolicy,
): Promise<Listed<RepostsRead>> {
  const got = await postPage(src, 'reposts', input, policy, (call) => src.tabs.reposts(input.id, call));
  return { read: { post: got.subject, items: got.items, ...got.meta }, cache: got.cache };
}

/** What belongs on each tab besides being the account's own post. */
const ON_TAB: Record<ProfileTab, (p: Post) => boolean> = {
  media: (p) => p.media.length > 0,
  articles: (p) => p.article !== undefined,
};

export async function readProfileTab(
  src: TabSources,
  input: TabInput,
  policy: ReadPolicy,
): Promise<Listed<ProfileTabRead>> {
  const { tab, handle } = input;
  const got = await pageWithSubject(
    src.cursors,
    tab,
    handle.toLowerCase(),
    input,
    policy,
    (p) => src.profile(handle, p),
    (call) => src.tabs[tab](handle, call),
  );
  // A tab holds the account's own posts of its kind; an upstream that mixes in others (reposts) is not the tab.
  const own = got.subject.id;
  const posts = got.items.filter((p) => p.author.id === own && !p.repostOf && ON_TAB[tab](p));
  return { read: { tab, profile: got.subject, posts, ...got.meta }, cache: got.cache };
}
