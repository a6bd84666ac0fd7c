// The deterministic corpus the simulator serves. Fixed ids/handles are exported for tests and demos;
// everything else is generated from a seeded PRNG so every run sees byte-identical data.
import { buildArticle } from './corpus-article.ts';
import type { SimCorpus, SimMedia, SimPost, SimTimelineEntry, SimUser } from './corpus-types.ts';
import { seededRandom, slug } from './prng.ts';
import { isSupersededVersion } from './corpus-queries.ts';
import { seedLists } from './corpus-lists.ts';
import { TRANSLATED_HANDLES, TRANSLATED_POSTS } from './corpus-translations.ts';

export const HANDLES = {
  alice: 'alice_dev',
  bob: 'bob',
  carol: 'carol',
  dave: 'dave',
  big: 'bigaccount',
  protected: 'locked_lena',
  suspended: 'gone_gus',
  hostile: 'mallory_md',
  /** An account with more posts than one export may take (PROLIFIC_POSTS, one an hour before T0). */
  prolific: 'prolific_pat',
  /** A handle no account has. */
  missing: 'nobody_here_404',
} as const;

const THREAD = Array.from({ length: 12 }, (_, i) => `19000000000000000${String(i + 1).padStart(2, '0')}`);

export const IDS = {
  /** alice_dev's self-thread, in order (1/12 .. 12/12). */
  thread: THREAD,
  threadRoot: THREAD[0]!,
  /** 2/12: photo with alt text, quotes carol's post. */
  threadPhoto: THREAD[1]!,
  /** 3/12: final poll. */
  threadPoll: THREAD[2]!,
  /** 4/12: video. */
  threadVideo: THREAD[3]!,
  /** 6/12: two photos, the second without alt text. */
  threadTwoPhotos: THREAD[5]!,
  threadLast: THREAD[11]!,
  carolQuoted: '1900000000000000100',
  /** Replies to the thread root; see `conversation` for the tree. */
  replies: {
    bobTop: '1900000000000000201',
    carolTop: '1900000000000000202',
    daveTop: '1900000000000000203',
    bigTop: '1900000000000000204',
    reader1Top: '1900000000000000205',
    reader2Top: '1900000000000000206',
    aliceToBob: '1900000000000000207',
    bobToAlice: '1900000000000000208',
    daveToCarol: '1900000000000000210',
    reader3ToDave: '1900000000000000211',
    aliceToDave: '1900000000000000212',
    daveToAlice: '1900000000000000213',
    reader4Top: '1900000000000000214',
    reader5Top: '1900000000000000215',
    reader6Top: '1900000000000000216',
    reader7Top: '1900000000000000217',
  },
  /** dave's root <- carol's reply <- bob's reply: ancestors by different authors. */
  daveRoot: '1900000000000000301',
  carolReplyToDave: '1900000000000000302',
  bobReplyToCarol: '1900000000000000303',
  noteTweet: '1900000000000000401',
  article: '1900000000000000402',
  communityNote: '1900000000000000403',
  cardLink: '1900000000000000404',
  gif: '1900000000000000405',
  deleted: '1900000000000000501',
  protected: '1900000000000000502',
  suspended: '1900000000000000503',
  /** carol quoting the deleted post. */
  quoteOfDeleted: '1900000000000000504',
  /** dave replying to the deleted post. */
  replyToDeleted: '1900000000000000505',
  hostile: '1900000000000000601',
  /** mallory_md quoting the deleted post; on the FxTwitter wire its author, facets and quote tombstone are malformed. */
  hostileWire: '1900000000000000602',
  /** dave's post edited twice: the original, the middle version and the latest. */
  editedFirst: '1900000000000000701',
  editedSecond: '1900000000000000702',
  editedLatest: '1900000000000000703',
  /** reader_0401's root <- reader_0402's reply (deleted) <- reader_0403's reply: a chain broken in the middle. */
  gapRoot: '1900000000000000711',
  gapDeleted: '1900000000000000712',
  gapReply: '1900000000000000713',
  /** A reply chain 25 posts deep (root first), three readers answering each other in turn. */
  deepChain: Array.from({ length: 25 }, (_, i) => String(1900000000000000801n + BigInt(i))),
  /**
   * reader_0421's question and its answers, for reply fidelity: a GIF with alt text (earliest, most liked), a later
   * answer with fewer likes (so `top` and `recent` order them differently), and an answer to the GIF whose parent
   * handle X left out (only the parent id is sent).
   */
  fidelityRoot: '1900000000000000901',
  gifReply: '1900000000000000902',
  lateReply: '1900000000000000903',
  handlelessReply: '1900000000000000904',
  /** A post with an app/website "unified card": X's card URL is a placeholder, the destination is in its JSON. */
  websiteCard: '1900000000000000905',
  /** reader_0426 quoting alice's 2/12, which itself quotes carol: a quote inside a quote. */
  quoteOfQuote: '1900000000000000906',
  /** reader_0431..0433 quoting alice's thread root, oldest first (the quotes list pages through them). */
  rootQuotes: ['1900000000000000911', '1900000000000000912', '1900000000000000913'],
  /** A well-formed id no post has. */
  unknown: '1900000000000999999',
  articleEntity: '1900000000000777000',
} as const;

/** The texts of the edited post's versions, oldest first. */
export const EDITED_TEXTS = [
  'Rolling out the new key scheme on Tuesday.',
  'Rolling out the new key scheme on Wednesday.',
  'Rolling out the new key scheme on Wednesday (not Tuesday, sorry for the noise).',
] as const;

/** Search terms with known corpus sizes (substring match on visible text, case-insensitive). */
export const SEARCH_TERMS = { caching: 'caching', threadmark: 'threadmark', none: 'zzznomatchzzz' } as const;

/** 2026-03-02T09:00:00Z: the thread starts here; everything else is placed around it. */
export const T0 = Date.UTC(2026, 2, 2, 9, 0, 0);
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

const READER_COUNT = 500;
/** Posts of the prolific account: more than the 5,000 an export takes at most. */
export const PROLIFIC_POSTS = 5050;
/** Id of the prolific account's n-th newest post (0 = newest); ids grow with time, as snowflakes do. */
export const prolificPostId = (n: number): string => String(1900000000000200000n + BigInt(PROLIFIC_POSTS - n));
export const BIG_FOLLOWERS = 450;
export const BIG_FOLLOWING = 300;

const readerHandle = (i: number) => `reader_${String(i).padStart(4, '0')}`;

class CorpusBuilder {
  readonly c: SimCorpus = {
    users: new Map(),
    usersByHandle: new Map(),
    posts: new Map(),
    children: new Map(),
    followers: new Map(),
    following: new Map(),
    timelines: new Map(),
    lists: new Map(),
  };
  private readonly rand = seededRandom(20260302);
  private fillerSeq = 0;

  int(min: number, max: number): number {
    return min + Math.floor(this.rand() * (max - min + 1));
  }

  user(u: Partial<SimUser> & Pick<SimUser, 'id' | 'handle' | 'name'>): SimUser {
    const user: SimUser = {
      bio: '',
      location: '',
      createdAt: Date.UTC(2015, 5, 1) + (Number(u.id) % 2000) * DAY,
      followers: 0,
      following: 0,
      statuses: 0,
      likes: this.int(10, 5000),
      mediaCount: 0,
      protected: false,
      suspended: false,
      verified: null,
      avatarUrl: `https://pbs.twimg.com/profile_images/${u.id}/${slug(u.handle, 8)}_normal.jpg`,
      bannerUrl: `https://pbs.twimg.com/profile_banners/${u.id}/1700000000`,
      ...u,
    };
    this.c.users.set(user.id, user);
    this.c.usersByHandle.set(user.handle.toLowerCase(), user);
    return user;
  }

  handle(h: string): SimUser {
    const u = this.c.usersByHandle.get(h.toLowerCase());
    if (!u) throw new Error(`corpus: unknown handle ${h}`);
    return u;
  }

  post(p: Partial<SimPost> & { id: string; author: string; at: number; text: string }): SimPost {
    const { author, at, ...rest } = p;
    const parent = p.replyToId ? this.c.posts.get(p.replyToId) : undefined;
    const authorId = this.handle(author).id;
    // X prefixes a reply with the parent author's handle unless you are answering yourself.
    const parentAuthor = parent ? this.c.users.get(parent.authorId) : undefined;
    const replyPrefix = parentAuthor && parentAuthor.id !== authorId ? [parentAuthor.handle] : [];
    const post: SimPost = {
      authorId,
      createdAt: at,
      replyPrefix,
      conversationId: parent ? parent.conversationId : p.id,
      media: [],
      likes: this.int(0, 40),
      reposts: this.int(0, 10),
      quotes: this.int(0, 3),
      views: 0,
      bookmarks: this.int(0, 8),
      lang: 'en',
      source: 'Twitter Web App',
      sensitive: false,
      deleted: false,
      ...rest,
    };
    if (!post.views) post.views = post.likes * 37 + this.int(50, 900);
    this.c.posts.set(post.id, post);
    if (post.replyToId) {
      const kids = this.c.children.get(post.replyToId) ?? [];
      kids.push(post.id);
      this.c.children.set(post.replyToId, kids);
    }
    return post;
  }

  photo(id: string, width: number, height: number, alt?: string): SimMedia {
    return { kind: 'photo', id, key: slug(`photo:${id}`, 15), width, height, ...(alt ? { alt } : {}) };
  }

  filler(author: string, at: number, text: string, withPhoto: boolean): SimPost {
    const id = String(1900000000000100000n + BigInt(this.fillerSeq++));
    const media = withPhoto ? [this.photo(`${id}1`, 1200, 675, 'Chart of cache hit rate over a week')] : [];
    return this.post({ id, author, at, text, media, likes: this.int(0, 500) });
  }

  follow(followerId: string, targetId: string) {
    const f = this.c.followers.get(targetId) ?? [];
    f.push(followerId);
    this.c.followers.set(targetId, f);
    const g = this.c.following.get(followerId) ?? [];
    g.push(targetId);
    this.c.following.set(followerId, g);
  }
}

const THREAD_TEXT = [
  '1/12 A thread on #caching for read-heavy APIs: what worked for us, what did not, and the numbers. Thanks @bob for the review.',
  '2/12 Start with the layers. Carol said it best, and here is the picture we keep on the wall.',
  '3/12 Quick poll before we go on: where does your hot path cache live?',
  '4/12 Here is the stampede we caused in production, recorded from the dashboard.',
  '5/12 Lesson one: every TTL needs jitter. We use 10% and sleep better. Details: https://example.com/notes/ttl-jitter',
  '6/12 Lesson two: measure hit rate per route, not globally. Before and after:',
  '7/12 Lesson three: coalesce concurrent misses so one request fills the cache for everyone #threadmark',
  '8/12 Lesson four: stale-if-error saved us during two upstream outages. @carol has a great write-up.',
  '9/12 Lesson five: cache keys must include everything that changes the output, including the format.',
  '10/12 Lesson six: negative caching (remembering 404s) is worth it, with a short TTL.',
  '11/12 What we would do differently: start with metrics, then add layers. See https://example.com/notes/cache-metrics',
  '12/12 That is it. Questions welcome, and thanks for reading! #caching #threadmark',
];

const CACHING_TEMPLATES = [
  'Caching tip {n}: put a TTL on everything, even the things you think never change.',
  'Today I learned our caching layer was hiding a slow query for months ({n}).',
  'Hot take {n}: most caching bugs are naming bugs in disguise.',
  'Benchmarked three caching strategies for {n} routes, write-up soon.',
  'If your caching has no metrics, you do not have caching, you have hope ({n}).',
  'Request coalescing + caching = the calmest on-call week we have had (#{n}).',
];
const THREADMARK_TEMPLATES = [
  'Tried threadmark to turn a long thread into Markdown notes ({n}). Works nicely.',
  'threadmark export {n} landed straight in my Obsidian vault.',
  'Using threadmark for research notes, day {n}.',
];

function build(): SimCorpus {
  const b = new CorpusBuilder();
  const { c } = b;

  const alice = b.user({
    id: '1461000001',
    handle: HANDLES.alice,
    name: 'Alice Developer',
    bio: 'Backend engineer. Caching, queues, and tidy APIs. Blog: https://alice.example.dev',
    location: 'Lisbon',
    website: 'https://alice.example.dev',
    verified: 'individual',
    about: {
      basedIn: 'Portugal',
      locationAccurate: true,
      source: 'Web',
      usernameChanges: 2,
      lastUsernameChange: Date.UTC(2024, 0, 10, 12),
      verifiedSince: Date.UTC(2023, 3, 1, 8),
    },
  });
  const bob = b.user({
    id: '1461000002',
    handle: HANDLES.bob,
    name: 'Bob',
    bio: 'SRE. Pager survivor.',
    location: 'Berlin',
  });
  const carol = b.user({
    id: '1461000003',
    handle: HANDLES.carol,
    name: 'Carol',
    bio: 'Writes about distributed systems.',
    location: 'Toronto',
  });
  const dave = b.user({
    id: '1461000004',
    handle: HANDLES.dave,
    name: 'Dave',
    bio: 'Databases and coffee.',
    location: '',
  });
  const big = b.user({
    id: '1461000005',
    handle: HANDLES.big,
    name: 'Big Account',
    bio: 'Daily notes on web performance.',
    location: 'Internet',
    verified: 'organization',
    about: {
      basedIn: 'United States',
      locationAccurate: false,
      source: 'United States App Store',
      usernameChanges: 0,
      verifiedSince: Date.UTC(2022, 10, 20),
      affiliate: { handle: 'webperf_co', name: 'Web Perf Co' },
    },
  });
  b.user({ id: '1461000006', handle: HANDLES.protected, name: 'Lena (locked)', bio: 'Friends only.', protected: true });
  b.user({ id: '1461000007', handle: HANDLES.suspended, name: 'Gus', bio: 'gone', suspended: true });
  b.user({
    id: '1461000008',
    handle: HANDLES.hostile,
    name: '<img src=x onerror=alert(1)> **Mallory** [admin](javascript:alert(1))',
    bio: '# not a heading\n<script>alert(1)</script> [click](javascript:alert(1)) | a | b |\n---\n> quoted? `code` **bold**',
    location: '<b>nowhere</b>',
  });
  const readers: SimUser[] = [];
  for (let i = 1; i <= READER_COUNT; i++) {
    readers.push(
      b.user({ id: String(1470000000 + i), handle: readerHandle(i), name: `Reader ${i}`, bio: `Reader number ${i}.` }),
    );
  }

  // --- alice's self-thread -------------------------------------------------------------------------
  b.post({
    id: IDS.carolQuoted,
    author: 'carol',
    at: T0 - 2 * DAY,
    text: 'Caches are a stack: browser, CDN, app memory, shared store. Know which one answered. #caching',
    likes: 310,
  });
  THREAD.forEach((id, i) => {
    const extra: Partial<SimPost> = {};
    if (i === 1) {
      extra.media = [
        b.photo('1900000000000880002', 1600, 900, 'Diagram of cache layers: browser, CDN, app LRU, Redis'),
      ];
      extra.quoteId = IDS.carolQuoted;
    } else if (i === 2) {
      extra.poll = {
        choices: [
          { label: 'Redis', votes: 420 },
          { label: 'Memcached', votes: 130 },
          { label: 'In-process LRU', votes: 610 },
          { label: 'CDN only', votes: 90 },
        ],
        endsAt: T0 + DAY,
        final: true,
        durationMinutes: 1440,
      };
    } else if (i === 3) {
      extra.media = [
        {
          kind: 'video',
          id: '1900000000000880004',
          key: slug('video:4', 16),
          width: 1280,
          height: 720,
          durationMs: 33_400,
        },
      ];
    } else if (i === 5) {
      extra.media = [
        b.photo('1900000000000880061', 1200, 800, 'Hit rate per route before the change'),
        b.photo('1900000000000880062', 1200, 800),
      ];
    }
    b.post({
      id,
      author: 'alice_dev',
      at: T0 + i * 2 * MIN,
      text: THREAD_TEXT[i]!,
      replyToId: i ? THREAD[i - 1] : undefined,
      likes: 120 - i * 7,
      ...extra,
    });
  });

  // --- conversation under the thread root: [id, author, parent, minutes after T0, likes] -----------
  const R = IDS.replies;
  const tree: [string, string, string, number, number, string][] = [
    [R.bigTop, 'bigaccount', IDS.threadRoot, 10, 15, 'Bookmarking this whole thread, the poll alone is worth it.'],
    [R.carolTop, 'carol', IDS.threadRoot, 30, 5, 'Thanks for the shout-out! Which TTL jitter did you settle on?'],
    [R.daveToCarol, 'dave', R.carolTop, 40, 8, 'They said 10% further down. We use 15% for batch jobs.'],
    [R.bobTop, 'bob', IDS.threadRoot, 60, 42, 'Great thread! The stampede video is painfully familiar.'],
    [R.aliceToBob, 'alice_dev', R.bobTop, 75, 12, 'Ha, you were on call for that one.'],
    [R.bobToAlice, 'bob', R.aliceToBob, 80, 3, 'Do not remind me.'],
    [
      R.daveTop,
      'dave',
      IDS.threadRoot,
      120,
      77,
      'Negative caching is underrated. It cut our database load by a third.',
    ],
    [R.reader3ToDave, readerHandle(3), R.daveTop, 130, 0, 'Any gotchas with negative caching and deletes?'],
    [R.aliceToDave, 'alice_dev', R.daveTop, 140, 20, 'Same here. Short TTLs are the key.'],
    [R.daveToAlice, 'dave', R.aliceToDave, 150, 2, 'Agreed, 30 seconds is plenty.'],
    [R.reader1Top, readerHandle(1), IDS.threadRoot, 200, 1, 'Saving this for later.'],
    [R.reader2Top, readerHandle(2), IDS.threadRoot, 210, 0, 'What about cache warming on deploy?'],
    [R.reader4Top, readerHandle(4), IDS.threadRoot, 220, 9, 'Would love the dashboard config.'],
    [R.reader5Top, readerHandle(5), IDS.threadRoot, 230, 4, 'Sharing with my team.'],
    [R.reader6Top, readerHandle(6), IDS.threadRoot, 240, 2, 'Clear and useful, thanks.'],
    [R.reader7Top, readerHandle(7), IDS.threadRoot, 250, 30, 'The per-route hit rate point is the one people miss.'],
  ];
  for (const [id, author, parent, minutes, likes, text] of tree) {
    b.post({ id, author, at: T0 + minutes * MIN, text, replyToId: parent, likes });
  }

  // --- ancestors by different authors -----------------------------------------------------------
  b.post({
    id: IDS.daveRoot,
    author: 'dave',
    at: T0 + 3 * HOUR,
    text: 'Is it ever OK to cache POST responses?',
    likes: 25,
  });
  b.post({
    id: IDS.carolReplyToDave,
    author: 'carol',
    at: T0 + 3 * HOUR + 20 * MIN,
    text: 'Only when the request is idempotent and you key on the body.',
    replyToId: IDS.daveRoot,
    likes: 11,
  });
  b.post({
    id: IDS.bobReplyToCarol,
    author: 'bob',
    at: T0 + 3 * HOUR + 45 * MIN,
    text: 'And never for anything that moves money.',
    replyToId: IDS.carolReplyToDave,
    likes: 6,
  });

  // --- a chain with a deleted middle post, and one deeper than the ancestor cap ----------------------
  b.post({
    id: IDS.gapRoot,
    author: readerHandle(401),
    at: T0 + 5 * HOUR,
    text: 'Which queue do you reach for first?',
    likes: 9,
  });
  b.post({
    id: IDS.gapDeleted,
    author: readerHandle(402),
    at: T0 + 5 * HOUR + 10 * MIN,
    text: 'Whatever the team already runs.',
    replyToId: IDS.gapRoot,
    deleted: true,
  });
  b.post({
    id: IDS.gapReply,
    author: readerHandle(403),
    at: T0 + 5 * HOUR + 20 * MIN,
    text: 'Boring answer, right answer.',
    replyToId: IDS.gapDeleted,
    likes: 4,
  });
  IDS.deepChain.forEach((id, i) => {
    const text = i === 0 ? 'Tabs or spaces, final answer?' : `Round ${i + 1}: I still disagree with you.`;
    b.post({
      id,
      author: readerHandle(411 + (i % 3)),
      at: T0 + 6 * HOUR + i * MIN,
      text,
      replyToId: i ? IDS.deepChain[i - 1] : undefined,
      likes: i % 5,
    });
  });

  // --- special posts ----------------------------------------------------------------------------
  const note = [
    'Long post about cache invalidation, because 280 characters was never going to be enough.',
    'First, the problem. Every cache is a copy, and every copy can be wrong. The question is never whether your cache will serve stale data; it is how stale, for how long, and who notices.',
    'Second, the tools. Time-based expiry is the blunt instrument: cheap, predictable, and always a little wrong. Event-based purging is precise but needs every writer to cooperate, forever. Versioned keys sidestep both by making old entries unreachable instead of deleting them.',
    'Third, the failure modes. Thundering herds when a hot key expires. Stale reads after a purge races a write. Memory blowups when a key space is unbounded. Each has a standard fix: jitter and coalescing, write-then-purge with a short delay, and bounded LRU with metrics.',
    'Fourth, the culture. Caches fail quietly. Put hit rate, age and error rate on the same dashboard as latency, or you will find out from users.',
    'Notes and references: https://example.com/notes/invalidation #caching',
  ].join('\n\n');
  b.post({ id: IDS.noteTweet, author: 'alice_dev', at: T0 + DAY, text: note, likes: 240, boldRanges: [[0, 9]] });

  b.post({
    id: IDS.article,
    author: 'alice_dev',
    at: T0 + DAY + 2 * HOUR,
    text: `http://x.com/i/article/${IDS.articleEntity}`,
    article: buildArticle(IDS.articleEntity, T0 + DAY + 2 * HOUR),
    likes: 180,
  });
  const claim = 'Caching makes every API faster, no exceptions.';
  const noteText = 'Caching adds a lookup to every miss and can slow down write-heavy endpoints; see example.org/bench';
  const noteLink = 'example.org/bench';
  b.post({
    id: IDS.communityNote,
    author: 'bigaccount',
    at: T0 + DAY + 4 * HOUR,
    text: claim,
    likes: 900,
    communityNote: {
      text: noteText,
      links: [
        {
          from: noteText.indexOf(noteLink),
          to: noteText.indexOf(noteLink) + noteLink.length,
          url: 'https://example.org/bench',
        },
      ],
    },
  });
  b.post({
    id: IDS.cardLink,
    author: 'alice_dev',
    at: T0 + DAY + 6 * HOUR,
    likes: 75,
    text: 'Wrote up the cache stampede story: https://blog.example.com/posts/cache-stampede',
    card: {
      url: 'https://blog.example.com/posts/cache-stampede',
      title: 'Taming cache stampedes',
      description: 'How one expired key took down checkout, and the three fixes that stopped it happening again.',
      domain: 'blog.example.com',
      imageUrl: 'https://pbs.twimg.com/card_img/1900000000000990404/stampede?format=jpg&name=800x419',
      imageWidth: 800,
      imageHeight: 419,
      imageAlt: 'A herd of buffalo',
    },
  });
  b.post({
    id: IDS.gif,
    author: 'carol',
    at: T0 + DAY + 7 * HOUR,
    text: 'Me watching the cache hit rate climb',
    likes: 55,
    media: [{ kind: 'gif', id: '1900000000000880405', key: slug('gif:405', 16), width: 498, height: 280 }],
  });

  b.post({
    id: IDS.deleted,
    author: 'bob',
    at: T0 + 2 * DAY,
    text: 'This take aged badly, deleting soon.',
    deleted: true,
  });
  b.post({
    id: IDS.protected,
    author: HANDLES.protected,
    at: T0 + 2 * DAY + HOUR,
    text: 'Only my followers can read this.',
  });
  b.post({ id: IDS.suspended, author: HANDLES.suspended, at: T0 + 2 * DAY + 2 * HOUR, text: 'Buy followers now!!!' });
  b.post({
    id: IDS.quoteOfDeleted,
    author: 'carol',
    at: T0 + 2 * DAY + 3 * HOUR,
    text: 'Screenshotting this before it disappears.',
    quoteId: IDS.deleted,
  });
  b.post({
    id: IDS.replyToDeleted,
    author: 'dave',
    at: T0 + 2 * DAY + 4 * HOUR,
    text: 'Too late, it is everywhere now.',
    replyToId: IDS.deleted,
  });
  b.post({
    id: IDS.hostile,
    author: HANDLES.hostile,
    at: T0 + 2 * DAY + 5 * HOUR,
    likes: 3,
    text: [
      '# heading injection',
      '<script>alert(1)</script> and [click](javascript:alert(1))',
      '**bold** __under__ `code` ``` fence ``` ~~strike~~',
      '| a | b |',
      '|---|---|',
      '---',
      '> fake quote',
      '![img](javascript:alert(2)) <!-- comment --> &amp; &lt;tag&gt; \\escaped\\',
      '1. not a list',
    ].join('\n'),
  });

  // --- an edited post: three versions, each readable by its own id ---------------------------------
  const versions = [IDS.editedFirst, IDS.editedSecond, IDS.editedLatest];
  EDITED_TEXTS.forEach((text, i) => {
    b.post({
      id: versions[i]!,
      author: 'dave',
      at: T0 + 3 * DAY + i * 10 * MIN,
      text,
      editVersions: versions,
      likes: 14 + i,
    });
  });

  // --- search and timeline filler ---------------------------------------------------------------
  for (let i = 0; i < 60; i++) {
    const author = i % 6 === 0 ? HANDLES.alice : i % 6 <= 2 ? HANDLES.big : readerHandle(10 + (i % 40));
    const text = CACHING_TEMPLATES[i % CACHING_TEMPLATES.length]!.replace('{n}', String(i + 1));
    b.filler(author, T0 - (i + 1) * 5 * HOUR - b.int(0, 59) * MIN, text, i % 4 === 1);
  }
  for (let i = 0; i < 25; i++) {
    const author = i % 5 === 0 ? HANDLES.big : readerHandle(60 + i);
    const text = THREADMARK_TEMPLATES[i % THREADMARK_TEMPLATES.length]!.replace('{n}', String(i + 1));
    b.filler(author, T0 - (i + 1) * 7 * HOUR - b.int(0, 59) * MIN, text, i % 3 === 0);
  }

  // --- an account with a long history: one original post an hour, every 25th with a photo ---
  b.user({ id: '1461000009', handle: HANDLES.prolific, name: 'Pat Prolific', bio: 'Posts every hour, on the hour.' });
  for (let n = PROLIFIC_POSTS - 1; n >= 0; n--) {
    const id = prolificPostId(n);
    b.post({
      id,
      author: HANDLES.prolific,
      at: T0 - (n + 1) * HOUR,
      text: `Field log entry ${PROLIFIC_POSTS - n}: all quiet.`,
      media: n % 25 === 0 ? [b.photo(`${id}9`, 800, 600, `Field photo ${PROLIFIC_POSTS - n}`)] : [],
    });
  }

  // --- social graph -----------------------------------------------------------------------------
  for (let i = 0; i < BIG_FOLLOWERS; i++) b.follow(readers[i]!.id, big.id);
  // bigaccount also follows alice below, which makes BIG_FOLLOWING in total.
  for (let i = 100; i < 100 + BIG_FOLLOWING - 1; i++) b.follow(big.id, readers[i]!.id);
  for (const u of [bob, carol, dave, big]) b.follow(u.id, alice.id);
  for (let i = 0; i < 40; i++) b.follow(readers[i]!.id, alice.id);
  for (const u of [bob, carol, dave]) b.follow(alice.id, u.id);
  b.follow(bob.id, carol.id);
  b.follow(carol.id, bob.id);
  b.follow(dave.id, carol.id);

  // --- upstream-supplied values that are not what they claim (added last: the PRNG sequence above is unchanged) ----
  b.post({
    id: IDS.hostileWire,
    author: HANDLES.hostile,
    at: T0 + 2 * DAY + 6 * HOUR,
    text: 'Odd upstream values: #\uD800tag and @a)](javascript:alert(1)) here',
    quoteId: IDS.deleted,
    wireQuirks: {
      authorHandle: 'mallory)](javascript:alert(1))',
      quoteTombstone: { reason: 'deleted](javascript:alert(3)) **loud**', id: '1900000000000000501(' },
      facets: [
        { type: 'hashtag', covers: '#\uD800tag', original: '\uD800tag' },
        { type: 'mention', covers: '@a)](javascript:alert(1))', original: 'a)](javascript:alert(1))' },
      ],
    },
  });

  // --- reply fidelity: alt text in replies, a reply without its parent's handle, an app/website card ---
  // Built last: the corpus's seeded random values above stay what they were.
  const F = T0 + 7 * HOUR;
  b.post({
    id: IDS.fidelityRoot,
    author: readerHandle(421),
    at: F,
    text: 'Show me your best miss-rate face.',
    likes: 3,
  });
  b.post({
    id: IDS.gifReply,
    author: readerHandle(422),
    at: F + 5 * MIN,
    text: 'This one.',
    replyToId: IDS.fidelityRoot,
    likes: 50,
    media: [
      {
        kind: 'gif',
        id: '1900000000000880902',
        key: slug('gif:902', 16),
        width: 480,
        height: 270,
        alt: 'A cat pushing a glass off a table',
      },
    ],
  });
  b.post({
    id: IDS.lateReply,
    author: readerHandle(423),
    at: F + 30 * MIN,
    text: 'Mine is just a long sigh.',
    replyToId: IDS.fidelityRoot,
    likes: 40,
  });
  b.post({
    id: IDS.handlelessReply,
    author: readerHandle(424),
    at: F + 40 * MIN,
    text: 'That glass had it coming.',
    replyToId: IDS.gifReply,
    replyHandleHidden: true,
    likes: 1,
  });
  b.post({
    id: IDS.websiteCard,
    author: readerHandle(425),
    at: F + HOUR,
    text: 'Our new status page is live.',
    likes: 12,
    card: {
      kind: 'website',
      url: 'https://status.example.net/?utm_source=x',
      title: 'Example status page',
      description: '',
      domain: 'status.example.net',
      imageUrl: 'https://pbs.twimg.com/media/1900000000000990905.jpg',
      imageWidth: 1200,
      imageHeight: 628,
    },
  });

  b.post({
    id: IDS.quoteOfQuote,
    author: readerHandle(426),
    at: F + 2 * HOUR,
    text: 'The layering point, again.',
    quoteId: IDS.threadPhoto,
    likes: 4,
  });

  IDS.rootQuotes.forEach((id, i) => {
    b.post({
      id,
      author: readerHandle(431 + i),
      at: F + (3 + i) * HOUR,
      text: ['Worth reading start to finish.', 'Sharing with the team.', 'Good thread, bookmarked.'][i]!,
      quoteId: IDS.threadRoot,
      likes: 2 + i,
    });
  });

  // --- posts in other languages (translations); placed after every random draw above, so they shift nothing ---
  b.user({
    id: '1461000010',
    handle: TRANSLATED_HANDLES.kenji,
    name: 'Kenji',
    bio: 'キャッシュとコーヒー',
    location: 'Tokyo',
  });
  b.user({
    id: '1461000011',
    handle: TRANSLATED_HANDLES.marie,
    name: 'Marie',
    bio: 'Ingénieure SRE',
    location: 'Lyon',
  });
  b.user({ id: '1461000012', handle: TRANSLATED_HANDLES.owen, name: 'Owen', bio: 'Ops.', location: 'Leeds' });
  TRANSLATED_POSTS.forEach((seed, i) => {
    const { into: _into, replyTo, ...post } = seed;
    b.post({ ...post, replyToId: replyTo, at: T0 + 5 * DAY + i * HOUR, likes: 10 - i });
  });

  // --- the example the home page and guides give (x.com/jack/status/20), so its links work on the demo; placed
  // after every random draw above, so it shifts nothing ---
  b.user({ id: '12', handle: 'jack', name: 'jack', bio: 'no state is the best state' });
  b.post({
    id: '20',
    author: 'jack',
    at: Date.UTC(2006, 2, 21, 20, 50, 14),
    likes: 300_000,
    text: 'just setting up my twttr',
  });

  // --- timelines (own posts + reposts), newest first ---------------------------------------------
  const reposts: [string, string, number][] = [
    // Readers reposting the thread root after bigaccount, so its reposts list pages.
    ...[441, 442, 443, 444].map((n, i): [string, string, number] => [
      readerHandle(n),
      IDS.threadRoot,
      F + (1 + i) * HOUR,
    ]),
    [HANDLES.alice, IDS.carolQuoted, T0 - DAY],
    [HANDLES.alice, IDS.daveRoot, T0 + 4 * HOUR],
    [HANDLES.alice, IDS.communityNote, T0 + DAY + 5 * HOUR],
    [HANDLES.big, IDS.threadRoot, T0 + HOUR],
    [HANDLES.big, IDS.cardLink, T0 + DAY + 8 * HOUR],
    [HANDLES.big, IDS.noteTweet, T0 + DAY + 9 * HOUR],
  ];
  for (const user of c.users.values()) {
    const own: SimTimelineEntry[] = [];
    for (const p of c.posts.values()) {
      if (p.authorId === user.id && !p.deleted && !isSupersededVersion(p)) own.push({ postId: p.id, at: p.createdAt });
    }
    for (const [handle, postId, at] of reposts) {
      if (handle === user.handle) own.push({ postId, repostedBy: user.id, at });
    }
    own.sort((x, y) => y.at - x.at || (x.postId < y.postId ? 1 : -1));
    c.timelines.set(user.id, own);
    user.followers = c.followers.get(user.id)?.length ?? 0;
    user.following = c.following.get(user.id)?.length ?? 0;
    user.statuses = own.filter((e) => !e.repostedBy).length;
    user.mediaCount = own.filter((e) => !e.repostedBy && (c.posts.get(e.postId)?.media.length ?? 0) > 0).length;
  }
  seedLists(c, T0 - 30 * DAY);
  return c;
}

let cached: SimCorpus | undefined;

/** The corpus is immutable after build, so one instance serves every simulator in the process. */
export function getCorpus(): SimCorpus {
  cached ??= build();
  return cached;
}
