// The translation step of a post read: each post of the read gets its text in the asked language beside the
// original. A post already in that language is left as it is; a translation no upstream can give is a warning.
import { isUnavailable, type Post, type ReplyNode, type Translation } from './models.ts';
import { languageName, needsNoTranslation } from './language.ts';
import type { PostRead } from './reads.ts';
import type { ReadPolicy, Sourced } from './sourced.ts';

export interface TranslationSource {
  /** The post's text in `lang` (a canonical tag); throws when no upstream can give it. */
  translation(post: Post, lang: string, policy: ReadPolicy): Promise<Sourced<Translation>>;
}

/** Posts one read translates at most (a long conversation's tail stays untranslated, with a warning). */
export const MAX_TRANSLATED = 50;
/** Translations asked for at once: enough to keep a thread quick, few enough to be polite to the upstream. */
const CONCURRENCY = 6;

export interface TranslatedRead {
  read: PostRead;
  /** False when some translation failed: a passing failure shaped the answer. */
  settled: boolean;
}

/** Every distinct post of a read worth translating, the requested post first, then in reading order. */
function postsOf(read: PostRead): Post[] {
  const nodes = (list: ReplyNode[]): Post[] => list.flatMap((n) => [n.post, ...nodes(n.children)]);
  return [read.requested, ...read.thread, ...read.parents, ...nodes(read.replies)];
}

/** The posts whose text `posts` show: each post, or the post it reposts, and the post it quotes; each once. */
function shownPosts(posts: Post[]): Post[] {
  const seen = new Map<string, Post>();
  for (const p of posts) {
    const own = p.repostOf ?? p;
    if (!seen.has(own.id)) seen.set(own.id, own);
    if (own.quote && !isUnavailable(own.quote) && !seen.has(own.quote.id)) seen.set(own.quote.id, own.quote);
  }
  return [...seen.values()];
}

/** The posts' translations into `lang`, put in place by `apply`; the posts themselves (shared, cached) are not changed. */
export interface PostTranslations {
  apply: (p: Post) => Post;
  warnings: string[];
  /** False when some translation failed: a passing failure shaped the answer. */
  settled: boolean;
}

/**
 * Translates what `posts` show into `lang`. A post already in that language is left alone, and so is one that
 * came with its translation (an upstream that attaches translations to its pages was asked in `lang`); the others
 * are asked of `source` one by one, a few at once, at most MAX_TRANSLATED.
 */
export async function translatePosts(
  posts: Post[],
  lang: string,
  source: TranslationSource,
  policy: ReadPolicy,
  max = MAX_TRANSLATED,
): Promise<PostTranslations & { asked: number; passedOver: number }> {
  const wanted = shownPosts(posts).filter(
    (p) => p.translation?.to !== lang && p.text.trim() !== '' && !needsNoTranslation(p.lang, lang),
  );
  const asked = wanted.slice(0, Math.max(0, max));
  const done = new Map<string, Translation>();
  const failures: string[] = [];
  for (let i = 0; i < asked.length; i += CONCURRENCY) {
    const batch = asked.slice(i, i + CONCURRENCY);
    const got = await Promise.allSettled(batch.map((p) => source.translation(p, lang, policy)));
    got.forEach((g, j) => {
      if (g.status === 'fulfilled') done.set(batch[j]!.id, g.value.value);
      else failures.push(g.reason instanceof Error ? g.reason.message : String(g.reason));
    });
  }
  const into = `${languageName(lang)} (${lang})`;
  const warnings: string[] = [];
  if (failures.length > 0) {
    const n = failures.length;
    warnings.push(
      `translation into ${into} unavailable for ${n} of ${wanted.length} ${wanted.length === 1 ? 'post' : 'posts'}: ${failures[0]}`,
    );
  }
  if (wanted.length > asked.length) {
    warnings.push(
      `${wanted.length - asked.length} posts not translated into ${into}: at most ${MAX_TRANSLATED} per read`,
    );
  }
  // A translation into another language (an upstream's, for an earlier ask) is not this read's.
  const stray = (p: Post) => p.translation !== undefined && p.translation.to !== lang;
  const apply = (p: Post): Post => {
    const t = done.get(p.id);
    const quote = p.quote && !isUnavailable(p.quote) ? apply(p.quote) : p.quote;
    const repostOf = p.repostOf ? apply(p.repostOf) : undefined;
    if (!t && !stray(p) && quote === p.quote && repostOf === p.repostOf) return p;
    const { translation: _other, ...rest } = p;
    const translation = t ?? (stray(p) ? undefined : p.translation);
    return {
      ...rest,
      ...(translation ? { translation } : {}),
      ...(quote ? { quote } : {}),
      ...(repostOf ? { repostOf } : {}),
    };
  };
  return {
    apply,
    warnings,
    settled: failures.length === 0,
    asked: asked.length,
    passedOver: wanted.length - asked.length,
  };
}

/** The read with each post's translation into `lang`; the read itself (shared, memoised) is not changed. */
export async function translateRead(
  read: PostRead,
  lang: string,
  source: TranslationSource,
  policy: ReadPolicy,
): Promise<TranslatedRead> {
  const t = await translatePosts(postsOf(read), lang, source, policy);
  const node = (n: ReplyNode): ReplyNode => ({ post: t.apply(n.post), children: n.children.map(node) });
  const translated: PostRead = {
    ...read,
    requested: t.apply(read.requested),
    parents: read.parents.map(t.apply),
    thread: read.thread.map(t.apply),
    replies: read.replies.map(node),
  };
  return {
    read: t.warnings.length === 0 ? translated : { ...translated, warnings: [...translated.warnings, ...t.warnings] },
    settled: t.settled,
  };
}
