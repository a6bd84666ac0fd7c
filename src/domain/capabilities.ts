// What the domain asks of its sources, in its own words: the search feeds, what a search yields, and the
// capabilities a provider can declare. Providers implement these; they do not define them.
import type { Author, Post } from './models.ts';

export type SearchFeed = 'latest' | 'top' | 'photos' | 'videos' | 'users';

export type SearchItem = { kind: 'post'; post: Post } | { kind: 'user'; user: Author };

export type Capability =
  | 'post'
  | 'conversation'
  | 'profile'
  /** A profile looked up by its numeric account id (the handle may have changed since the link was made). */
  | 'profileById'
  | 'timeline'
  | 'followers'
  | 'following'
  | `search:${SearchFeed}`
  /** An X List's name, description, owner and member count. */
  | 'list'
  /** The latest posts of an X List's members. */
  | 'listPosts'
  /** The accounts an X List holds. */
  | 'listMembers'
  /** A post's text in another language, from the upstream's translating service. */
  | 'translate'
  /** The trending topics of X's Explore page. */
  | 'trends'
  /** The posts quoting a post, newest first. */
  | 'quotes'
  /** The accounts that reposted a post. */
  | 'reposts'
  /** A profile's posts with photos or videos (its media tab). */
  | 'media'
  /** A profile's X Articles (its articles tab). */
  | 'articles'
  /** What X shows about an account beyond its bio (based in, verification since, username changes…). */
  | 'about';
