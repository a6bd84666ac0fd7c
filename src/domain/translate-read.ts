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
  const seen = new Map<string, Post>();
  const add = (p: Post) => {
    const own = p.repostOf ?? p;
    if (!seen.has(own.id)) seen.set(own.id, own);
    if (own.quote && !isUnavailable(own.quote) && !seen.has(own.quote.id)) seen.set(own.quote.id, own.quote);
  };
  const walk = (nodes: ReplyNode[]) => {
    for (const n of nodes) {
      add(n.post);
      walk(n.children);
    }
  };
  add(read.requested);
  read.thread.forEach(add);
  read.parents.forEach(add);
  walk(read.replies);
  return [...seen.values()];
}

function withTranslations(read: PostRead, done: ReadonlyMap<string, Translation>): PostRead {
  const post = (p: Post): Post => {
    const t = done.get(p.id);
    const quote = p.quote && !isUnavailable(p.quote) ? post(p.quote) : p.quote;
    const repostOf = p.repostOf ? post(p.repostOf) : undefined;
    if (!t && quote === p.quote && repostOf === p.repostOf) return p;
    return { ...p, ...(t ? { translation: t } : {}), ...(quote ? { quote } : {}), ...(repostOf ? { repostOf } : {}) };
  };
  const node = (n: ReplyNode): ReplyNode => ({ post: post(n.post), children: n.children.map(node) });
  return {
    ...read,
    requested: post(read.requested),
    parents: read.parents.map(post),
    thread: read.thread.map(post),
    replies: read.replies.map(node),
  };
}

/** The read with each post's translation into `lang`; the read itself (shared, memoised) is not changed. */
export async function translateRead(
  read: PostRead,
  lang: string,
  source: TranslationSource,
  policy: ReadPolicy,
): Promise<TranslatedRead> {
  const wanted = postsOf(read).filter((p) => p.text.trim() !== '' && !needsNoTranslation(p.lang, lang));
  const asked = wanted.slice(0, MAX_TRANSLATED);
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
  const translated = done.size === 0 ? read : withTranslations(read, done);
  return {
    read: warnings.length === 0 ? translated : { ...translated, warnings: [...translated.warnings, ...warnings] },
    settled: failures.length === 0,
  };
}
