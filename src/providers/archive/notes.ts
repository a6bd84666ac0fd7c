// Long posts: tweets.js keeps a long post's first 280 characters and a link; note-tweet.js keeps its whole text
// under an id of its own. A note is matched to its post by creation time (the same second, give or take the
// moments X took to store both) and by text (the post's visible start is the start of the note's text).
import type { TextFacet } from '../shared/segments.ts';
import { unescapeHtml } from '../shared/segments.ts';
import type { ArchiveNoteTweet, Num } from './wire.ts';

/** Seconds a note's time may differ from its post's. */
const SLACK_S = 5;
/** Characters of the start compared. */
const PREFIX = 40;

export interface LongText {
  text: string;
  facets: TextFacet[];
}

const num = (v: Num | undefined) => (v === undefined ? NaN : Number(v));

/** The words before the first link, spaces folded: what a post's cut text and its note's text both begin with. */
function startOf(text: string): string {
  return unescapeHtml(text)
    .split(/https?:\/\//)[0]!
    .replace(/…$/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, PREFIX);
}

function facetsOf(n: ArchiveNoteTweet): TextFacet[] {
  const core = n.core ?? {};
  const text = core.text ?? '';
  const out: TextFacet[] = [];
  const range = (r: { fromIndex?: Num; toIndex?: Num }) => [num(r.fromIndex), num(r.toIndex)] as const;
  for (const u of core.urls ?? []) {
    const [start, end] = range(u);
    // The note's text may hold the short link or the link itself: the facet covers whichever is there.
    const original = [u.shortUrl, u.expandedUrl].find((x) => x && text.includes(x));
    out.push({ type: 'url', start, end, ...(original ? { original } : {}), href: u.expandedUrl ?? u.shortUrl });
  }
  for (const m of core.mentions ?? [])
    out.push({ type: 'mention', start: range(m)[0], end: range(m)[1], original: m.screenName });
  for (const h of core.hashtags ?? [])
    out.push({ type: 'hashtag', start: range(h)[0], end: range(h)[1], original: h.text });
  for (const s of core.cashtags ?? [])
    out.push({ type: 'cashtag', start: range(s)[0], end: range(s)[1], original: s.text });
  return out.filter((f) => Number.isInteger(f.start) && Number.isInteger(f.end));
}

/** The notes of an archive, by the second they were made; each is handed out once. */
export class NoteIndex {
  private readonly bySecond = new Map<number, ArchiveNoteTweet[]>();
  size = 0;

  add(element: unknown): void {
    const n = (element as { noteTweet?: ArchiveNoteTweet } | null)?.noteTweet;
    const at = Date.parse(n?.createdAt ?? '');
    if (!n || typeof n.core?.text !== 'string' || !Number.isFinite(at)) return;
    const s = Math.floor(at / 1000);
    const list = this.bySecond.get(s) ?? [];
    list.push(n);
    this.bySecond.set(s, list);
    this.size++;
  }

  /** The whole text of the long post made at `createdAt` whose cut text is `cut`, if its note is here. */
  take(createdAt: string, cut: string): LongText | undefined {
    const at = Date.parse(createdAt);
    if (!Number.isFinite(at) || this.size === 0) return undefined;
    const s = Math.floor(at / 1000);
    const want = startOf(cut);
    for (let d = 0; d <= SLACK_S; d++) {
      for (const second of d === 0 ? [s] : [s - d, s + d]) {
        const list = this.bySecond.get(second);
        const i = list?.findIndex((n) => startOf(n.core!.text!) === want) ?? -1;
        if (i < 0) continue;
        const [note] = list!.splice(i, 1);
        if (list!.length === 0) this.bySecond.delete(second);
        this.size--;
        return { text: note!.core!.text!, facets: facetsOf(note!) };
      }
    }
    return undefined;
  }
}
