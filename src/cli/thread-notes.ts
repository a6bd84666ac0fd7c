// The Obsidian notes of a thread, for `read --out` and `export --vault` alike: both render a thread's notes here,
// from the same posts with the same options, so one thread gets one note (the same name and the same bytes) from
// either command, and a second run finds its notes unchanged. The tally is what a run reports it wrote.
import type { Post } from '../domain/models.ts';
import type { PostRead } from '../domain/reads.ts';
import { statusPath } from '../domain/links.ts';
import { renderPostObsidian } from '../render/obsidian.ts';
import { withLocalMedia } from '../media/note-media.ts';
import { noteName, writeNote, type Note, type NoteAction, type NoteResult } from './vault.ts';
import type { NoteTemplate } from './note-flags.ts';
import type { MediaSession } from './media-flags.ts';

/** One note per thread (the whole self-thread) or one per post, each linking its thread's first note. */
export const VAULT_NOTES = ['thread', 'post'] as const;
export type VaultNotes = (typeof VAULT_NOTES)[number];

/** A note and the posts it holds (whose media go with it). */
export type ThreadNote = Note & { posts: Post[] };

/** How the notes render their posts: the service's base for links, and `read`'s --full and --userinfo. */
export interface NoteRendering {
  baseUrl: string;
  full?: boolean;
  userinfo?: 'off' | 'author' | 'all';
  /** The notes' provenance in their front matter (default: export; an archive's import says so). */
  source?: string;
}

/** The template's front matter for a note written now. */
const frontMatterNow = (t: NoteTemplate) =>
  t.fetched ? { ...t.frontMatter, fetched: new Date().toISOString() } : t.frontMatter;

/** A note's read: the posts it holds and nothing around them, whichever command read them. */
function noteRead(requested: Post, thread: Post[], source = 'export'): PostRead {
  return { requested, parents: [], thread, replies: [], repliesMode: 'off' as const, source, warnings: [] };
}

const documentOptions = (r: NoteRendering) => ({
  full: r.full ?? false,
  userinfo: r.userinfo ?? ('off' as const),
  baseUrl: r.baseUrl,
});

/** The note of one post on its own (for a repost, the post that was reposted). */
function noteOf(line: Post, r: NoteRendering, t: NoteTemplate): ThreadNote {
  const post = line.repostOf ?? line;
  return {
    name: noteName(post, t.name),
    body: renderPostObsidian(noteRead(post, [post], r.source), documentOptions(r), undefined, frontMatterNow(t)),
    posts: [post],
  };
}

/** The notes of one thread (oldest post first): the whole thread in one note, or a note per post linking it. */
export function threadNotes(thread: Post[], mode: VaultNotes, r: NoteRendering, t: NoteTemplate): ThreadNote[] {
  const first = thread[0]!;
  if (thread.length === 1 || first.repostOf) return [noteOf(first, r, t)];
  if (mode === 'thread') {
    const body = renderPostObsidian(
      noteRead(first, thread, r.source),
      documentOptions(r),
      undefined,
      frontMatterNow(t),
    );
    return [{ name: noteName(first, t.name), body, posts: thread }];
  }
  const url = `${r.baseUrl}${statusPath(first.author.handle, first.id)}`;
  return thread.map((post, i) => ({
    name: noteName(post, t.name),
    body: renderPostObsidian(
      noteRead(post, [post], r.source),
      documentOptions(r),
      { first: noteName(first, t.name), position: i + 1, length: thread.length, url },
      frontMatterNow(t),
    ),
    posts: [post],
  }));
}

/** Where and how a command writes notes into a vault. */
export interface VaultOutput {
  dir: string;
  mode: VaultNotes;
  baseUrl: string;
  template: NoteTemplate;
  media?: MediaSession | undefined;
  /** Provenance in the notes' front matter (default: export). */
  source?: string;
}

/** Writes the notes of finished threads into the vault, their media saved with them; each result is told as written. */
export async function writeThreadNotes(
  done: Post[][],
  vault: VaultOutput,
  told: (result: NoteResult) => void,
): Promise<void> {
  const rendering: NoteRendering = { baseUrl: vault.baseUrl, ...(vault.source ? { source: vault.source } : {}) };
  for (const thread of done) {
    for (const { posts, ...note } of threadNotes(thread, vault.mode, rendering, vault.template)) {
      if (vault.media) note.body = (await withLocalMedia(vault.media.store, note.body, posts, 'obsidian')).body;
      told(writeNote(vault.dir, note));
    }
  }
}

/** What a run did to the vault, note by note, for its report. */
export class NoteTally {
  private readonly counts: Record<NoteAction, number> = { written: 0, unchanged: 0, renamed: 0 };

  add(result: NoteResult): void {
    this.counts[result.action]++;
  }

  /** `notes in DIR: 0 written, 14 unchanged` (and how many were renamed, when any were). */
  summary(dir: string): string {
    const { written, unchanged, renamed } = this.counts;
    return `notes in ${dir}: ${written} written, ${unchanged} unchanged${renamed ? `, ${renamed} renamed` : ''}`;
  }
}
