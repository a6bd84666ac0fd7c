// The JSON representation's bodies as zod schemas: what render/json.ts emits, declared once. Route declarations
// name theirs, so the OpenAPI document and the MCP tools' outputSchema describe exactly what a caller receives.
// Objects are open (unknown members may be added inside v1, as the versioning policy allows); members the
// renderer always writes are required, the rest optional, absent rather than null.
import { z } from 'zod';
import { ABOUT_FACTS } from '../domain/about.ts';
import { EXPORT_STOPS } from '../domain/export.ts';

const count = z.number().int().nonnegative();
const isoTime = z.string().describe('ISO 8601 UTC timestamp.');

const segment = z.looseObject({
  type: z.enum(['text', 'link', 'mention', 'hashtag', 'cashtag']),
  text: z.string(),
  href: z.string().optional(),
  handle: z.string().optional(),
  tag: z.string().optional(),
  symbol: z.string().optional(),
});

export const authorSchema = z
  .looseObject({
    id: z.string(),
    handle: z.string(),
    name: z.string(),
    avatarUrl: z.string().optional(),
    bannerUrl: z.string().optional(),
    bio: z.string().optional(),
    bioSegments: z.array(segment).optional(),
    location: z.string().optional(),
    website: z.string().optional(),
    joined: isoTime.optional(),
    followers: count.optional(),
    following: count.optional(),
    posts: count.optional(),
    likes: count.optional(),
    mediaCount: count.optional(),
    verified: z.boolean().optional(),
    protected: z.boolean().optional(),
  })
  .describe('An account.');

const media = z.looseObject({
  kind: z.enum(['photo', 'video', 'gif']),
  url: z.string(),
  thumbnailUrl: z.string().optional(),
  altText: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  durationSeconds: z.number().optional(),
});

const poll = z.looseObject({
  choices: z.array(z.looseObject({ label: z.string(), votes: count, percent: z.number() })),
  totalVotes: count,
  endsAt: isoTime.optional(),
  final: z.boolean(),
});

const metrics = z.looseObject({
  likes: count.optional(),
  reposts: count.optional(),
  quotes: count.optional(),
  replies: count.optional(),
  views: count.optional(),
  bookmarks: count.optional(),
});

const card = z
  .looseObject({
    url: z
      .string()
      .describe(
        'Where the card leads: the expanded link, a broadcast or Space page, or for an app/website card the ' +
          'destination named in the card itself (never the https://twitter.com placeholder X puts in its URL).',
      ),
    title: z.string().optional(),
    domain: z.string().optional(),
    description: z.string().optional(),
    imageUrl: z.string().optional(),
  })
  .describe('Link preview of a summary, large-image, player, broadcast, Space or app/website card.');

const article = z.looseObject({
  id: z.string().optional(),
  title: z.string(),
  previewText: z.string().optional(),
  coverUrl: z.string().optional(),
  blocks: z
    .array(z.looseObject({ type: z.string() }))
    .describe(
      'The whole body, whichever provider served it: headings, paragraphs, lists, quotes, code, images, dividers, ' +
        'in order. Links X recognised in the text (URLs, mentions, hashtags, cashtags) are spans with an `href`. ' +
        'Syndication gives only the preview (the post is then `truncated`).',
    ),
});

const translation = z
  .looseObject({
    text: z.string().describe('The translated text.'),
    from: z
      .string()
      .describe("Language translated from (BCP 47), as the translating service detected it; 'und' when unknown."),
    to: z.string().describe('Language translated into: the canonical form of the `lang` asked for.'),
    service: z.string().describe('The translating service, e.g. Grok or Google Translate.'),
    provider: z
      .string()
      .describe('Provider that passed the translation on: fxtwitter, or x for the translation X itself attaches.'),
  })
  .describe("With `lang`: the post's text in that language, beside `text` (never instead of it).");

const unavailablePost = z.looseObject({
  unavailable: z.literal(true),
  id: z.string().optional(),
  reason: z.enum(['deleted', 'suspended', 'private', 'blocked', 'unavailable']),
  message: z.string().optional(),
});

export const postSchema = z
  .looseObject({
    id: z.string(),
    url: z.string().describe('Canonical platform permalink.'),
    author: authorSchema,
    createdAt: isoTime,
    text: z
      .string()
      .describe(
        "The post's readable text, links expanded. For an X Article post: the article's title and preview (its " +
          'own text is only the link to the article, which `segments` leave out).',
      ),
    segments: z.array(segment),
    media: z.array(media),
    get quote() {
      return z.union([postSchema, unavailablePost]).optional();
    },
    poll: poll.optional(),
    article: article.optional(),
    card: card.optional(),
    metrics,
    lang: z.string().optional(),
    source: z.string().optional(),
    replyTo: z
      .looseObject({ id: z.string().optional(), handle: z.string() })
      .describe(
        'The post this one answers. `handle` is empty when X left out the parent author and kept only its id; ' +
          'the Markdown then reads "Replying to a post" with a link to it.',
      )
      .optional(),
    conversationId: z.string().optional(),
    communityNote: z.string().optional(),
    sensitive: z.boolean().optional(),
    get repostOf() {
      return postSchema.optional();
    },
    truncated: z.boolean().optional(),
    edits: z
      .looseObject({
        versions: z.array(z.string()).min(2).describe('Every version id, the original first, the latest last.'),
      })
      .optional()
      .describe('Present when the post was edited and the answering provider reports it.'),
    translation: translation.optional(),
  })
  .describe('A post.');

const readWindow = z
  .looseObject({ since: isoTime.optional(), until: isoTime.optional() })
  .optional()
  .describe('The date window read (since inclusive, until exclusive), when since/until were given.');

const replyNode = z.looseObject({
  post: postSchema,
  get children() {
    return z.array(replyNode);
  },
});

const provenance = {
  markdown: z.string().describe('The Markdown representation of the same read.'),
  source: z.string().describe('Provider that answered.'),
  warnings: z.array(z.string()).describe('What was left out or degraded (also in X-Warnings).'),
};

export const postJsonSchema = z.looseObject({
  ...provenance,
  post: postSchema.describe('The requested post.'),
  thread: z.array(postSchema).describe("The author's own chain containing the requested post, in order."),
  conversation: z.looseObject({
    parents: z
      .array(postSchema)
      .describe(
        "With context=full: the posts above the author's own chain, from the conversation's first post down to the direct " +
          'parent, across authors. At most 20: the first post and the 19 nearest. Empty with context=thread or thread=off.',
      ),
    parentsOmitted: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('How many ancestors were left out between parents[0] and parents[1]; absent when none were.'),
    earlier: z
      .enum(['unavailable', 'cut_short'])
      .optional()
      .describe(
        'The conversation continues above the first post shown but could not be read: an earlier post is deleted, protected ' +
          'or unavailable, or the request ran out of upstream time. Absent when the top was reached.',
      ),
    replies: z.array(replyNode),
  }),
});

const paging = {
  nextCursor: z.string().optional().describe('Send back as `cursor` for the next page; absent at the end.'),
  page: z.number().int().min(1),
  limit: z.number().int().min(1),
};

export const profileJsonSchema = z.looseObject({
  ...provenance,
  profile: authorSchema,
  window: readWindow,
  includes: z
    .looseObject({ replies: z.boolean(), reposts: z.boolean() })
    .optional()
    .describe('Which kinds besides its own posts were asked for (with_replies: replies to others; with_reposts).'),
  posts: z
    .array(postSchema)
    .describe(
      "Most recent original posts, the continuations of the account's own threads included (and replies to others / " +
        'reposts when asked for), newest first.',
    ),
  ...paging,
});

export const connectionsJsonSchema = z.looseObject({
  ...provenance,
  kind: z.enum(['followers', 'following']),
  handle: z.string(),
  items: z.array(authorSchema),
  ...paging,
});

const searchItem = z.union([
  z.looseObject({ kind: z.literal('post'), post: postSchema }),
  z.looseObject({ kind: z.literal('user'), user: authorSchema }),
]);

export const searchJsonSchema = z.looseObject({
  ...provenance,
  q: z.string(),
  feed: z.enum(['latest', 'top', 'photos', 'videos', 'users']),
  window: readWindow,
  items: z.array(searchItem),
  ...paging,
});

const curatedListSchema = z
  .looseObject({
    id: z.string(),
    name: z.string(),
    description: z.string().optional(),
    owner: authorSchema,
    members: count.optional(),
    subscribers: count.optional(),
    createdAt: isoTime.optional(),
  })
  .describe('An X List: a timeline its owner curates from its members.');

export const listPostsJsonSchema = z.looseObject({
  ...provenance,
  list: curatedListSchema,
  posts: z
    .array(postSchema)
    .describe("The latest posts of the list's members, newest first (replies and reposts included, as X shows them)."),
  ...paging,
});

export const listMembersJsonSchema = z.looseObject({
  ...provenance,
  list: curatedListSchema,
  items: z.array(authorSchema).describe('The accounts the list holds.'),
  ...paging,
});

export const quotesJsonSchema = z.looseObject({
  ...provenance,
  post: postSchema.describe('The quoted post.'),
  posts: z.array(postSchema).describe('Posts quoting it, newest first.'),
  ...paging,
});

export const repostsJsonSchema = z.looseObject({
  ...provenance,
  post: postSchema.describe('The reposted post.'),
  items: z.array(authorSchema).describe('Accounts that reposted it, as the platform orders them.'),
  ...paging,
});

export const profileTabJsonSchema = z.looseObject({
  ...provenance,
  tab: z.enum(['media', 'articles']),
  profile: authorSchema,
  posts: z
    .array(postSchema)
    .describe("The account's own posts on the tab (with photos or videos; or its X Articles, whole), newest first."),
  ...paging,
});

const isoDate = z.string().describe('ISO 8601 UTC.');

export const aboutJsonSchema = z.looseObject({
  ...provenance,
  facts: z
    .looseObject({
      id: z.string().optional(),
      handle: z.string(),
      name: z.string().optional(),
      basedIn: z.string().optional().describe('The country or region X says the account is based in.'),
      basedInAccurate: z.boolean().optional().describe('false: X says the place may not be accurate (VPN, proxy).'),
      connectedVia: z.string().optional().describe('How the account connects to X, as X words it.'),
      joined: isoDate.optional(),
      verified: z.boolean().optional(),
      verifiedType: z.string().optional(),
      verifiedSince: isoDate.optional(),
      identityVerified: z.boolean().optional(),
      usernameChanges: z.number().int().min(0).optional(),
      lastUsernameChange: isoDate.optional(),
      affiliate: z
        .union([
          z.literal(false),
          z.looseObject({ name: z.string(), url: z.string().optional(), badgeUrl: z.string().optional() }),
        ])
        .optional()
        .describe('The affiliate badge; false when X says there is none.'),
    })
    .describe('What the upstream gave; a fact it did not give is absent and named in `unknown`.'),
  unknown: z
    .array(z.enum(ABOUT_FACTS))
    .describe('Facts the upstream did not give, stated as unknown rather than guessed.'),
});

const problemDocument = z
  .looseObject({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    code: z.string(),
    detail: z.string(),
    resolution: z.string(),
    documentation_url: z.string(),
  })
  .describe('The RFC 9457 problem document of what cut the export short.');

export const exportEndSchema = z
  .looseObject({
    type: z.literal('end'),
    reason: z
      .enum(EXPORT_STOPS)
      .describe(
        'max_posts: max_posts were written; window: the start of the date window was reached; end_of_timeline: the ' +
          'upstream has nothing older; upstream_error: a page could not be read (see problem); rate_limited: a ' +
          "keyed export ran out of its live-key budget; time_limit: the export's time ran out.",
      ),
    posts: count.describe('Posts written by this export.'),
    cursor: z
      .string()
      .optional()
      .describe(
        'Send back as `cursor`, with the same handle, window and options, to continue with the next post; absent when ' +
          'there is nothing more to read.',
      ),
    problem: problemDocument.optional(),
    warnings: z
      .array(z.string())
      .optional()
      .describe(
        'What the export could not include or read only degraded: reposts in a window, a stale page, a fallback search.',
      ),
  })
  .describe('The last line of an NDJSON export (and `end` of the JSON one): why it stopped and where to resume.');

export const exportJsonSchema = z.looseObject({
  handle: z.string(),
  window: readWindow,
  includes: z.looseObject({ replies: z.boolean(), reposts: z.boolean() }),
  posts: z.array(postSchema).describe('The posts read, newest first (the same objects as the NDJSON lines).'),
  end: exportEndSchema,
});

export const oembedJsonSchema = z
  .looseObject({
    version: z.literal('1.0'),
    type: z.literal('rich'),
    title: z.string().optional(),
    html: z.string().describe('A blockquote snippet; all text is HTML-escaped and there is no script.'),
    width: z.number().int(),
    height: z.number().int(),
    author_name: z.string().optional(),
    author_url: z.url().optional(),
    provider_name: z.string(),
    provider_url: z.url(),
    cache_age: z.number().int().optional(),
  })
  .describe('An oEmbed 1.0 rich embed.');

const trendSchema = z
  .looseObject({
    name: z.string().describe('What trends: a hashtag (#tag), a cashtag ($TAG) or words.'),
    rank: z.number().int().optional().describe("Position in the upstream's list, 1 first."),
    context: z.string().optional().describe('What the upstream says about it, e.g. "Technology · Trending".'),
    posts: z
      .number()
      .int()
      .optional()
      .describe(
        'Posts about it as the upstream counts them (X rounds large counts); absent when it gives no count (FxTwitter never does, X not for every trend).',
      ),
    related: z.array(z.string()).optional().describe('Topics grouped under it.'),
    url: z
      .string()
      .optional()
      .describe("X's page of an AI-written story trend (https://x.com/i/trending/<id>); its name is a headline."),
  })
  .describe('A trending topic.');

export const trendsJsonSchema = z.looseObject({
  markdown: z.string().describe('The Markdown representation of the same read.'),
  trends: z.array(trendSchema).describe("X's current trends, in the upstream's order."),
  ttlSeconds: z.number().int().describe('How long this list is kept before it is read again.'),
  source: z.string().describe('Provider that answered.'),
  warnings: z.array(z.string()).describe('What was degraded (also in X-Warnings).'),
});
