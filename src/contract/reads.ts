// The declared schemas of every public read (the `v1` routes), keyed by operationId: the very zod objects the
// route declarations validate with and render from, declared in this folder below every user (routes, surface,
// client). The typed client (src/client/) imports this file for types only, so a parameter or result type is never
// written a second time; test/unit/client-coverage.test.ts checks each entry is the schema its route declares. A new read adds one line here and one in src/client/reads.ts.
import type { z } from 'zod';
import { listQuery } from './params/list.ts';
import { postsQuery } from './queries/posts.ts';
import { exportQuery, profileQuery } from './queries/profiles.ts';
import { postListQuery } from './queries/lists.ts';
import { searchQuery } from './queries/search.ts';
import { listFeedQuery, postFeedQuery, searchFeedQuery, v1ProfileQuery } from './queries/feeds.ts';
import { oembedQuery } from './queries/oembed.ts';
import { tagFeedQuery, tagPageQuery } from './queries/tags.ts';
import { trendsQuery } from './queries/trends.ts';
import { aboutQuery } from './queries/about.ts';
import {
  connectionsJsonSchema,
  exportEndSchema,
  exportJsonSchema,
  listMembersJsonSchema,
  listPostsJsonSchema,
  oembedJsonSchema,
  postJsonSchema,
  postSchema,
  profileJsonSchema,
  searchJsonSchema,
  quotesJsonSchema,
  repostsJsonSchema,
  profileTabJsonSchema,
  aboutJsonSchema,
  trendsJsonSchema,
} from './json-schemas.ts';

/** A read's query schema and, when it answers JSON, the schema of its JSON body. */
export interface ReadSchemas {
  query: z.ZodObject;
  json?: z.ZodType;
}

export const READ_SCHEMAS = {
  readPost: { query: postsQuery, json: postJsonSchema },
  readProfile: { query: profileQuery, json: profileJsonSchema },
  readProfileById: { query: profileQuery, json: profileJsonSchema },
  listFollowers: { query: listQuery, json: connectionsJsonSchema },
  listFollowing: { query: listQuery, json: connectionsJsonSchema },
  exportProfilePosts: { query: exportQuery, json: exportJsonSchema },
  readList: { query: postListQuery, json: listPostsJsonSchema },
  readListMembers: { query: listQuery, json: listMembersJsonSchema },
  search: { query: searchQuery, json: searchJsonSchema },
  profileFeed: { query: v1ProfileQuery },
  searchFeed: { query: searchFeedQuery },
  listFeed: { query: listFeedQuery },
  threadFeed: { query: postFeedQuery },
  oembed: { query: oembedQuery, json: oembedJsonSchema },
  hashtag: { query: tagPageQuery, json: searchJsonSchema },
  cashtag: { query: tagPageQuery, json: searchJsonSchema },
  hashtagFeed: { query: tagFeedQuery },
  cashtagFeed: { query: tagFeedQuery },
  trends: { query: trendsQuery, json: trendsJsonSchema },
  listQuotes: { query: postListQuery, json: quotesJsonSchema },
  listReposts: { query: listQuery, json: repostsJsonSchema },
  listMedia: { query: postListQuery, json: profileTabJsonSchema },
  listArticles: { query: postListQuery, json: profileTabJsonSchema },
  readAbout: { query: aboutQuery, json: aboutJsonSchema },
  quotesFeed: { query: postFeedQuery },
  articlesFeed: { query: postFeedQuery },
} satisfies Record<string, ReadSchemas>;

/** The lines of an NDJSON export: posts, then the end record. */
export const EXPORT_LINES = { post: postSchema, end: exportEndSchema };

export type ReadContract = typeof READ_SCHEMAS;
export type ReadName = keyof ReadContract;
