// `threadmark export`: an account's posts through the export route, written as they arrive (NDJSON to a file or
// stdout, and/or Obsidian notes into a vault: one per thread, or one per post linking its thread), with progress
// on stderr and --resume from the file's end line. Every line is on disk as soon as it is read, so an export cut
// short keeps what it wrote; a thread's note is written once its first post is read (or the export ends).
import { closeSync, ftruncateSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import type { Post } from '../domain/models.ts';
import type { Client } from './client.ts';
import type { ExportEnd } from '../client/index.ts';
import { CliError, EXIT, usageError } from './exit.ts';
import type { CliIO, Output } from './output.ts';
import { NoteTally, writeThreadNotes, type VaultNotes, type VaultOutput } from './thread-notes.ts';
import { ThreadGatherer } from './vault-threads.ts';
import { accountHandle } from './lists.ts';
import { checkMediaFlags, openMedia, type MediaFlags } from './media-flags.ts';
import { noteTemplate, type NoteFlags } from './note-flags.ts';

export interface ExportFlags extends MediaFlags, NoteFlags {
  since?: string;
  until?: string;
  maxPosts?: number;
  withReplies?: boolean;
  withReposts?: boolean;
  translate?: string;
  out?: string;
  vault?: string;
  /** One note per thread (default) or one per post. */
  vaultNotes?: VaultNotes;
  resume?: boolean;
  /** With --out: replace a file that is already there. */
  force?: boolean;
}

/** The export's last line, as the typed client reads it. */
type EndLine = ExportEnd;

const isEnd = (x: unknown): x is EndLine => (x as EndLine | null)?.type === 'end';

/** Whether a path is a regular file: what a new export would replace (a device or a pipe holds nothing to lose). */
function holdsFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A refusal to replace `path`, in the command's words. */
const outputExists = (path: string) =>
  new CliError(
    'output_exists',
    `${path} already exists: --resume continues the export it holds, --force replaces it; it was left as it was`,
    EXIT.usage,
  );

/**
 * Opens --out: resumed in place, replaced with --force, else created. Without --force a file that appeared since
 * the check is not replaced either (`wx` fails on it); a device or a pipe that is there is written to.
 */
function openOut(path: string, resume: boolean, force: boolean): number {
  if (resume) return openSync(path, 'r+');
  let exists = true;
  try {
    statSync(path);
  } catch {
    exists = false;
  }
  try {
    return openSync(path, force || exists ? 'w' : 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw outputExists(path);
    throw e;
  }
}

/** Checked before any connection is opened, so a wrong combination costs nothing. */
export function checkExportFlags(flags: ExportFlags): void {
  if (flags.resume && flags.out === undefined) throw usageError('--resume needs --out (the file to continue)');
  if (flags.force && flags.out === undefined) throw usageError('--force needs --out (the file to replace)');
  if (flags.force && flags.resume)
    throw usageError('--force and --resume exclude each other: --resume continues the file, --force replaces it');
  if (flags.out !== undefined && !flags.resume && !flags.force && holdsFile(flags.out)) {
    throw outputExists(flags.out);
  }
  if (flags.vaultNotes !== undefined && flags.vault === undefined)
    throw usageError('--vault-notes needs --vault (the folder the notes go to)');
  checkMediaFlags(flags, flags.vault !== undefined, '--vault (the folder the notes and attachments/ go to)');
  noteTemplate(flags, flags.vault !== undefined, '--vault');
}

interface Resume {
  cursor: string;
  /** Bytes of the file before its end line: the resumed posts go there. */
  keep: number;
}

/** Where a resumed export starts: the cursor of the file's end line. Undefined when the file is complete. */
function resumeFrom(file: string, io: CliIO): Resume | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CliError('nothing_to_resume', `cannot read ${file}: ${(e as Error).message}`, EXIT.usage);
  }
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  const start = body.lastIndexOf('\n') + 1;
  let last: unknown;
  try {
    last = JSON.parse(body.slice(start));
  } catch {
    last = undefined;
  }
  if (!isEnd(last)) {
    throw new CliError(
      'nothing_to_resume',
      `${file} does not end with an export's end line (was the export interrupted?); start a new export`,
      EXIT.usage,
    );
  }
  if (!last.cursor) {
    io.stderr.write(`threadmark: ${file} is complete (${last.reason}); nothing to resume\n`);
    return undefined;
  }
  return { cursor: last.cursor, keep: Buffer.byteLength(body.slice(0, start)) };
}

/** Posts read and the date reached: a bar redrawn in place on a terminal, a line per hundred posts otherwise. */
export class Progress {
  private posts = 0;
  private reached = '';
  private drawnAt = 0;
  /** Whether the bar is on the terminal's current line. */
  private drawn = false;

  constructor(
    private readonly err: Output,
    private readonly max: number,
    /** More to show after the posts (media saved so far). */
    private readonly suffix: () => string = () => '',
    /** Posts between two progress lines when stderr is not a terminal. */
    private readonly every = 100,
  ) {}

  /** Draws the bar again now, on a terminal (a media file arrived). */
  redraw(): void {
    if (this.err.isTTY && this.err.control && this.posts > 0) this.draw(Date.now());
  }

  post(createdAt: string): void {
    this.posts++;
    this.reached = createdAt.slice(0, 16).replace('T', ' ');
    if (this.err.isTTY && this.err.control) {
      const now = Date.now();
      if (now - this.drawnAt >= 100 || this.posts === this.max) this.draw(now);
    } else if (this.posts % this.every === 0) {
      this.err.write(`threadmark: ${this.posts} posts, reached ${this.reached} UTC\n`);
    }
  }

  /**
   * Writes a line of stdout that shares the terminal with the bar: the bar is erased first (carriage return, erase
   * line) so the line starts clean, and drawn again on the next post.
   */
  aside(out: Output, line: string): void {
    if (out.isTTY && this.drawn && this.err.control) {
      this.err.control('\r\x1b[K');
      this.drawn = false;
      this.drawnAt = 0;
    }
    out.write(line);
  }

  private draw(now: number): void {
    this.drawnAt = now;
    this.drawn = true;
    const width = 24;
    const filled = Math.min(width, Math.round((this.posts / this.max) * width));
    // Back to the start of the line (the terminal's own control, not post text), then the bar.
    this.err.control!('\r');
    this.err.write(
      `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${this.posts}/${this.max} posts, reached ${this.reached} UTC${this.suffix()}`,
    );
  }

  finish(): void {
    if (this.err.isTTY && this.err.control && this.posts > 0) {
      this.draw(Date.now());
      this.err.write('\n');
    }
  }
}

export async function runExport(client: Client, handle: string, flags: ExportFlags, io: CliIO): Promise<number> {
  checkExportFlags(flags);
  const resume = flags.resume ? resumeFrom(flags.out!, io) : undefined;
  if (flags.resume && resume === undefined) return EXIT.ok;
  // The vault's media store is opened before the service is asked: a refused attachments/ folder costs nothing.
  const media =
    flags.vault !== undefined
      ? openMedia(
          flags,
          flags.vault,
          io,
          () => progress.redraw(),
          (line) => progress.aside(io.stderr, line),
        )
      : undefined;
  const progress = new Progress(io.stderr, flags.maxPosts ?? 1000, () => (media ? ` · ${media.state()}` : ''));
  const stream = await client.export(accountHandle(handle), {
    since: flags.since,
    until: flags.until,
    max_posts: flags.maxPosts,
    with_replies: flags.withReplies ? true : undefined,
    with_reposts: flags.withReposts ? true : undefined,
    translate: flags.translate,
    cursor: resume?.cursor,
  });
  // Without --out or --vault the NDJSON goes to stdout; with --vault alone, stdout lists the notes.
  // Only once the service has accepted the cursor is the old end line replaced: a refused resume leaves the file as it was.
  const fd = flags.out !== undefined ? openOut(flags.out, resume !== undefined, flags.force === true) : undefined;
  if (fd !== undefined && resume) ftruncateSync(fd, resume.keep);
  let offset = resume?.keep ?? 0;
  const toStdout = fd === undefined && flags.vault === undefined;
  const record = (line: string) => {
    if (fd !== undefined) offset += writeSync(fd, `${line}\n`, offset);
    else if (toStdout) progress.aside(io.stdout, `${line}\n`);
  };
  let end: EndLine | undefined;
  let written = 0;
  const threads = flags.vault !== undefined ? new ThreadGatherer() : undefined;
  const template = noteTemplate(flags, flags.vault !== undefined, '--vault');
  const tally = new NoteTally();
  const vault: VaultOutput | undefined = flags.vault
    ? { dir: flags.vault, mode: flags.vaultNotes ?? 'thread', baseUrl: client.baseUrl, template: template!, media }
    : undefined;
  const writeThreads = (done: Post[][]) =>
    writeThreadNotes(done, vault!, (r) => {
      tally.add(r);
      progress.aside(io.stdout, `${r.action}\t${r.path}\n`);
    });
  try {
    for await (const r of stream.records()) {
      record(r.line);
      if (r.kind === 'end') {
        end = r.end;
        break;
      }
      const post = r.post as Post;
      written++;
      if (threads) await writeThreads(threads.add(post));
      progress.post(post.createdAt);
    }
    // Threads whose first post the export did not reach get the notes of the posts it did read.
    if (threads) await writeThreads(threads.drain());
  } catch (e) {
    // Cut short, the posts read still get their notes; the failure reported is the one that cut the export.
    try {
      if (threads) await writeThreads(threads.drain());
    } catch {
      // the vault failure, if any, is secondary to the one being thrown
    }
    throw e;
  } finally {
    progress.finish();
    media?.finish();
    if (fd !== undefined) closeSync(fd);
  }
  const where = flags.out ?? (flags.vault !== undefined ? flags.vault : 'stdout');
  if (!end) {
    throw new CliError(
      'export_incomplete',
      `the stream ended without its end line; ${written} posts were written to ${where}`,
      EXIT.upstream,
    );
  }
  const more = end.cursor
    ? flags.out !== undefined
      ? '; --resume continues from the next post'
      : '; more to read'
    : '';
  // Posts go to the file as they are read; the vault's report counts the notes the run changed, not the posts.
  const report = [
    ...(flags.out !== undefined || !threads ? [`${written} posts written to ${where}`] : [`${written} posts read`]),
    ...(threads ? [tally.summary(flags.vault!)] : []),
  ].join('; ');
  io.stderr.write(`threadmark: export stopped (${end.reason}): ${report}${more}\n`);
  for (const w of end.warnings ?? []) io.stderr.write(`threadmark: warning: ${w}\n`);
  if (end.reason === 'upstream_error' || end.reason === 'rate_limited') {
    throw new CliError(
      end.problem?.code ?? end.reason,
      `${end.problem?.detail ?? 'the export was cut short'} (${written} posts kept in ${where})`,
      end.reason === 'rate_limited' ? EXIT.rateLimited : EXIT.upstream,
    );
  }
  return EXIT.ok;
}
