// `threadmark import`: X's own data export (the zip, or the folder it unpacks to) turned into what `export` writes:
// Obsidian notes in a vault (one per self-thread, named, templated and deduplicated the same way, media copied
// from the archive) and/or the NDJSON of the same post objects. Offline: no service, no network. The archive is
// read twice as a stream: first an index of ids (which posts are kept, which continue which), then the posts,
// each written as soon as its thread is whole, so memory stays bounded whatever the archive's size.
import { closeSync, openSync, writeSync } from 'node:fs';
import { ConfigError, loadConfig } from '../config.ts';
import { parseInstant } from '../domain/instants.ts';
import type { TimelineOptions } from '../domain/lists.ts';
import type { MediaRef } from '../domain/media-refs.ts';
import type { Post } from '../domain/models.ts';
import { ArchiveError, type ArchiveProblem } from '../providers/archive/errors.ts';
import { openArchive, type ArchiveFiles } from '../providers/archive/files.ts';
import { NoteIndex } from '../providers/archive/notes.ts';
import {
  answersOwner,
  isRepost,
  parseArchiveTweet,
  parseOwner,
  tweetId,
  tweetOf,
  type ArchiveOwner,
} from '../providers/archive/parse.ts';
import { ytdElements } from '../providers/archive/ytd.ts';
import { CliError, EXIT, usageError } from './exit.ts';
import { Progress } from './export.ts';
import { writeThreadNotes, type VaultNotes, type VaultOutput } from './thread-notes.ts';
import { ThreadAssembler, ThreadIndex } from './import-threads.ts';
import { checkMediaFlags, openMedia, type MediaFlags, type MediaSession } from './media-flags.ts';
import { noteTemplate, type NoteFlags } from './note-flags.ts';
import type { CliIO } from './output.ts';
import type { NoteAction } from './vault.ts';

export const IMPORT_FORMATS = ['ndjson', 'json'] as const;

export interface ImportFlags extends MediaFlags, NoteFlags {
  since?: string;
  until?: string;
  withReplies?: boolean;
  withReposts?: boolean;
  out?: string;
  vault?: string;
  vaultNotes?: VaultNotes;
  format?: (typeof IMPORT_FORMATS)[number];
}

/** The notes' provenance in their front matter. */
const SOURCE = 'archive';
/** Posts between two progress lines when stderr is not a terminal. */
const LINE_EVERY = 10_000;

/** Exit codes of a bad archive: a path that is not there is not found; an archive that is not one is bad input. */
const PROBLEM_EXIT: Record<ArchiveProblem, number> = {
  archive_not_found: EXIT.notFound,
  not_a_zip: EXIT.usage,
  truncated_archive: EXIT.usage,
  no_tweets: EXIT.usage,
  invalid_archive_file: EXIT.usage,
  no_account: EXIT.usage,
};

const asCliError = (e: unknown): unknown =>
  e instanceof ArchiveError ? new CliError(e.problem, e.message, PROBLEM_EXIT[e.problem]) : e;

interface Window {
  sinceMs?: number;
  untilMs?: number;
  iso: { since?: string; until?: string };
}

function windowOf(flags: ImportFlags): Window {
  const at = (flag: string, v: string | undefined) => {
    if (v === undefined) return undefined;
    const ms = parseInstant(v);
    if (ms === undefined)
      throw new CliError(
        'invalid_date',
        `${flag} takes an ISO 8601 date or date-time, e.g. 2026-03-01 (got ${JSON.stringify(v)})`,
        EXIT.usage,
      );
    return ms;
  };
  const sinceMs = at('--since', flags.since);
  const untilMs = at('--until', flags.until);
  if (sinceMs !== undefined && untilMs !== undefined && sinceMs >= untilMs)
    throw new CliError('invalid_date', '--since must come before --until', EXIT.usage);
  const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
  return {
    ...(sinceMs !== undefined ? { sinceMs } : {}),
    ...(untilMs !== undefined ? { untilMs } : {}),
    iso: {
      ...(sinceMs !== undefined ? { since: iso(sinceMs) } : {}),
      ...(untilMs !== undefined ? { until: iso(untilMs) } : {}),
    },
  };
}

/** Checked before the archive is opened. */
export function checkImportFlags(flags: ImportFlags): void {
  if (flags.vaultNotes !== undefined && flags.vault === undefined)
    throw usageError('--vault-notes needs --vault (the folder the notes go to)');
  if (flags.format !== undefined && flags.vault !== undefined && flags.out === undefined)
    throw usageError('--format shapes --out (or stdout): with --vault alone there is nothing to format');
  checkMediaFlags(flags, flags.vault !== undefined, '--vault (the folder the notes and attachments/ go to)');
  noteTemplate(flags, flags.vault !== undefined, '--vault');
  windowOf(flags);
}

/** Which of the archive's posts the import keeps: the export's rule (own posts and threads; replies, reposts if asked). */
interface Keep {
  window: Window;
  includes: TimelineOptions;
}

function kept(keep: Keep, at: number, repost: boolean, replyToOther: boolean): boolean {
  const { sinceMs, untilMs } = keep.window;
  if (sinceMs !== undefined && at < sinceMs) return false;
  if (untilMs !== undefined && at >= untilMs) return false;
  return repost ? keep.includes.reposts : replyToOther ? keep.includes.replies : true;
}

/** The archive's posts as elements, file after file. */
async function* tweetElements(files: ArchiveFiles): AsyncGenerator<unknown> {
  for (const name of files.tweetFiles()) yield* ytdElements(files.text(name), `data/${name}`);
}

async function firstElement(files: ArchiveFiles, name: string): Promise<unknown> {
  if (!files.has(name)) return undefined;
  for await (const element of ytdElements(files.text(name), `data/${name}`)) return element;
  return undefined;
}

/** First pass: the posts kept, and which continue which. */
async function indexPosts(files: ArchiveFiles, owner: ArchiveOwner, keep: Keep, io: CliIO): Promise<ThreadIndex> {
  const index = new ThreadIndex();
  let seen = 0;
  const tty = !!io.stderr.isTTY && io.stderr.control !== undefined;
  for await (const element of tweetElements(files)) {
    const t = tweetOf(element);
    const id = t && tweetId(t);
    if (!t || !id) continue;
    // What parseArchiveTweet would refuse is not counted either, so every thread counted completes.
    const at = Date.parse(t.created_at ?? '');
    if (!Number.isFinite(at) || typeof t.full_text !== 'string') continue;
    const repost = isRepost(t);
    const self = !repost && answersOwner(t, owner);
    const replyToOther = !repost && !self && !!(t.in_reply_to_status_id_str || t.in_reply_to_screen_name);
    if (!kept(keep, at, repost, replyToOther)) continue;
    index.add(id, self ? t.in_reply_to_status_id_str : undefined);
    if (tty && ++seen % 5000 === 0) {
      io.stderr.control!('\r\x1b[K');
      io.stderr.write(`threadmark: reading ${files.path}: ${seen} posts`);
    }
  }
  if (tty && seen >= 5000) io.stderr.control!('\r\x1b[K');
  index.seal();
  return index;
}

/** The NDJSON (or one JSON document) of the posts, written as they are read, to a file or stdout. */
class PostsOutput {
  private fd: number | undefined;
  private count = 0;

  constructor(
    private readonly flags: ImportFlags,
    private readonly io: CliIO,
    private readonly progress: Progress,
    private readonly about: { handle: string; window: Window; includes: TimelineOptions },
  ) {
    if (flags.out !== undefined) {
      try {
        this.fd = openSync(flags.out, 'w');
      } catch (e) {
        throw new CliError('output', `cannot write ${flags.out}: ${(e as Error).message}`, EXIT.failure);
      }
    }
    if (this.json) {
      const { handle, window, includes } = this.about;
      const head = { handle, ...(window.iso.since || window.iso.until ? { window: window.iso } : {}), includes };
      this.write(`${JSON.stringify(head).slice(0, -1)},"posts":[`);
    }
  }

  private get json(): boolean {
    return this.flags.format === 'json';
  }

  private write(text: string): void {
    if (this.fd !== undefined) writeSync(this.fd, text);
    else this.progress.aside(this.io.stdout, text);
  }

  post(p: Post): void {
    const line = JSON.stringify(p);
    this.write(this.json ? `${this.count > 0 ? ',' : ''}${line}` : `${line}\n`);
    this.count++;
  }

  end(reason: 'window' | 'end_of_timeline', posts: number): void {
    const end = { type: 'end', reason, posts };
    this.write(this.json ? `],"end":${JSON.stringify(end)}}\n` : `${JSON.stringify(end)}\n`);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** The service's address, which notes link hashtags, cashtags and whole threads to (THREADMARK_BASE_URL). */
function baseUrlOf(io: CliIO): string {
  try {
    return loadConfig(io.env).baseUrl;
  } catch (e) {
    if (e instanceof ConfigError) throw new CliError('config', e.message, EXIT.usage);
    throw e;
  }
}

/** The archive file a media URL names: X stores each under its post's (or account's) id and the URL's file name. */
function archiveMedia(files: ArchiveFiles) {
  return (ref: MediaRef) => {
    let u: URL;
    try {
      u = new URL(ref.url);
    } catch {
      return undefined;
    }
    const name = u.pathname.split('/').pop() ?? '';
    if (!name) return undefined;
    const folder = ref.role === 'avatar' || ref.role === 'banner' ? 'profile_media' : 'tweets_media';
    const file = files.media(folder, name);
    return file && { size: file.size, open: () => file.open() };
  };
}

export async function runImport(path: string, flags: ImportFlags, io: CliIO): Promise<number> {
  checkImportFlags(flags);
  const window = windowOf(flags);
  const includes: TimelineOptions = { replies: !!flags.withReplies, reposts: !!flags.withReposts };
  const template = noteTemplate(flags, flags.vault !== undefined, '--vault');
  const baseUrl = flags.vault !== undefined ? baseUrlOf(io) : '';
  let files: ArchiveFiles;
  try {
    files = await openArchive(path, { media: !!flags.media });
  } catch (e) {
    throw asCliError(e);
  }
  let output: PostsOutput | undefined;
  let progress: Progress | undefined;
  let media: MediaSession | undefined;
  const counts: Record<NoteAction, number> = { written: 0, unchanged: 0, renamed: 0 };
  let posts = 0;
  let threads = 0;
  try {
    if (!files.has('account.js'))
      throw new ArchiveError('no_account', `${path} has no data/account.js: the posts' author is not known`);
    const owner = parseOwner(await firstElement(files, 'account.js'), await firstElement(files, 'profile.js'));
    const keep: Keep = { window, includes };
    const index = await indexPosts(files, owner, keep, io);
    const notes = new NoteIndex();
    if (files.has('note-tweet.js'))
      for await (const element of ytdElements(files.text('note-tweet.js'), 'data/note-tweet.js')) notes.add(element);

    // Every data file has been read once by now: an archive refused has written nothing.
    media =
      flags.vault !== undefined
        ? openMedia(
            flags,
            flags.vault,
            io,
            () => progress?.redraw(),
            (line) => (progress ? progress.aside(io.stderr, line) : io.stderr.write(line)),
            archiveMedia(files),
          )
        : undefined;
    const session = media;

    progress = new Progress(
      io.stderr,
      Math.max(1, index.size),
      () => (session ? ` · ${session.state()}` : ''),
      LINE_EVERY,
    );
    const toStdout = flags.out === undefined && flags.vault === undefined;
    output =
      flags.out !== undefined || toStdout
        ? new PostsOutput(flags, io, progress, { handle: owner.handle, window, includes })
        : undefined;
    const vault: VaultOutput | undefined =
      flags.vault !== undefined
        ? {
            dir: flags.vault,
            mode: flags.vaultNotes ?? 'thread',
            baseUrl,
            template: template!,
            ...(session ? { media: session } : {}),
            source: SOURCE,
          }
        : undefined;
    const assembler = new ThreadAssembler(index);
    const p = progress;
    const writeNotes = async (done: Post[][]) => {
      threads += done.length;
      if (!vault) return;
      await writeThreadNotes(done, vault, (r) => {
        counts[r.action]++;
        p.aside(io.stdout, `${r.action}\t${r.path}\n`);
      });
    };
    for await (const element of tweetElements(files)) {
      const t = tweetOf(element);
      const id = t && tweetId(t);
      if (!t || !id || !index.take(id)) continue;
      const post = parseArchiveTweet(t, owner, notes);
      if (!post) continue;
      posts++;
      output?.post(post);
      await writeNotes(assembler.add(post));
      p.post(post.createdAt);
    }
    await writeNotes(assembler.drain());
    output?.end(window.sinceMs !== undefined ? 'window' : 'end_of_timeline', posts);
  } catch (e) {
    throw asCliError(e);
  } finally {
    progress?.finish();
    media?.finish();
    output?.close();
    files.close();
  }
  const where = [flags.out, flags.vault].filter((x) => x !== undefined).join(' and ') || 'stdout';
  const notesSaid =
    flags.vault !== undefined
      ? counts.written + counts.renamed === 0
        ? `; nothing new in ${flags.vault} (${counts.unchanged} notes already there)`
        : `; notes: ${counts.written} written, ${counts.renamed} renamed, ${counts.unchanged} unchanged`
      : '';
  io.stderr.write(`threadmark: import: ${posts} posts (${threads} threads) from ${path} to ${where}${notesSaid}\n`);
  return EXIT.ok;
}
