// One conversation answer asked in a language carries X's translation of every post in it, while a read asks for
// its posts' translations one by one (and a few at once). This keeps what such an answer said for a little while
// and lets the posts asked meanwhile wait for the answer in flight, so a thread costs one session request rather
// than one per post. The translations themselves are cached per post and language above the chain, as FxTwitter's
// are; this only spares requests within one read.
import { ProviderError, type UpstreamTranslation } from '../types.ts';
import { translationIn, translationsIn } from './translation.ts';
import type { XEnvelope } from './wire.ts';

/** Long enough for the posts of one read, short enough never to matter as a cache. */
const TTL_MS = 30_000;
/** Posts remembered at most; the oldest go first. */
const MAX_ENTRIES = 2_000;

export class TranslationMemo {
  private readonly said = new Map<string, { value: UpstreamTranslation | null; until: number }>();
  private readonly inFlight = new Map<string, Set<Promise<unknown>>>();

  constructor(private readonly now: () => number = Date.now) {}

  /** X's translation of `id` into `lang`: from an answer already read or in flight, else from `ask`. */
  async translation(id: string, lang: string, ask: () => Promise<XEnvelope>): Promise<UpstreamTranslation> {
    const known = this.known(id, lang);
    if (known !== undefined) return orEmpty(known, id, lang);
    const waiting = this.inFlight.get(lang);
    if (waiting && waiting.size > 0) {
      await Promise.allSettled([...waiting]);
      const now = this.known(id, lang);
      if (now !== undefined) return orEmpty(now, id, lang);
    }
    const answer = ask();
    const tracked = answer.then((env) => this.remember(env, lang));
    const set = this.inFlight.get(lang) ?? new Set();
    this.inFlight.set(lang, set.add(tracked));
    void tracked
      .catch(() => {})
      .finally(() => {
        set.delete(tracked);
        if (set.size === 0 && this.inFlight.get(lang) === set) this.inFlight.delete(lang);
      });
    return translationIn(await answer, id, lang);
  }

  private known(id: string, lang: string): UpstreamTranslation | null | undefined {
    const key = `${lang}\u0000${id}`;
    const hit = this.said.get(key);
    if (!hit) return undefined;
    if (hit.until > this.now()) return hit.value;
    this.said.delete(key);
    return undefined;
  }

  private remember(env: XEnvelope, lang: string): void {
    const until = this.now() + TTL_MS;
    for (const [id, value] of translationsIn(env, lang)) {
      const key = `${lang}\u0000${id}`;
      this.said.delete(key);
      this.said.set(key, { value, until });
    }
    for (const key of this.said.keys()) {
      if (this.said.size <= MAX_ENTRIES) break;
      this.said.delete(key);
    }
  }
}

function orEmpty(t: UpstreamTranslation | null, id: string, lang: string): UpstreamTranslation {
  if (t) return t;
  throw new ProviderError('x', 'empty', `X gave no translation of ${id} into ${lang}`);
}
