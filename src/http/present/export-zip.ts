// format=zip of the export route: a folder of Obsidian notes (one per post, named as the CLI's vault names them)
// streamed as the walk reads pages, with media=local the files they hold under attachments/ (each file once, by
// content hash) and the notes embedding them; `export.json` at the end holds the end line and what was skipped.
import { engines } from '../../engines.ts';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { ZipFile } from 'yazl';
import type { MediaRef } from '../../domain/media-refs.ts';
import type { Post } from '../../domain/models.ts';
import type { PostRead } from '../../domain/reads.ts';
import { withLocalMedia } from '../../media/note-media.ts';
import { MediaFetchFailed, openMedia, refusalOf, type MediaFetchOptions } from '../../media/fetch.ts';
import type { Payer } from '../../media/payer.ts';
import { spool, type Spooled } from '../../media/spool.ts';
import { ATTACHMENTS, type SaveResult, type SkipReason } from '../../media/store.ts';
import { noteFileName } from '../../render/note-template.ts';
import { renderPostObsidian } from '../../render/obsidian.ts';
import { AllowanceRefused } from '../../domain/failures.ts';
import { toProblem } from '../failures/problem-of.ts';
import type { Rendered } from '../../contract/rendered.ts';
import { endLine, type ExportReply } from './export.ts';

export const ZIP_TYPE = 'application/zip';

/**
 * Resolves once the archive's writer has room (its output is below its high-water mark: the socket is taking
 * what was written) or the archive is gone. yazl writes a buffer entry without waiting, so the filler waits here
 * before adding more.
 */
function writerReady(out: Writable): Promise<void> {
  if (!out.writableNeedDrain || out.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.once('drain', done);
    out.once('close', done);
  });
}

class ArchiveFull extends Error {}

/**
 * Media into the archive, one file at a time: fetched for the export's payer, written to a temporary file as it
 * arrives (hashed on the way, so nothing holds a whole file in memory), added as an entry the archive reads when it
 * gets to it, and the next file fetched only once the archive has read the previous one: a client that stops
 * reading stops the fetches. Each file once per content hash, bounded per run.
 */
class ZipMedia {
  private readonly done = new Map<string, Promise<SaveResult>>();
  private readonly names = new Set<string>();
  /** The last file's entry: read by the archive (or the archive gone). */
  private written: Promise<void> = Promise.resolve();
  private dir: Promise<string> | undefined;
  /** The body of the file being fetched. */
  private current: Readable | undefined;
  bytes = 0;
  readonly skipped: Array<{ url: string; reason: SkipReason; detail: string }> = [];

  constructor(
    private readonly zip: ZipFile,
    private readonly out: Writable,
    private readonly opts: ZipMediaOptions,
  ) {
    // A client that went away stops the file under way too, not only the next ones.
    out.once('close', () => {
      this.current?.destroy();
      void this.cleanUp();
    });
  }

  save(ref: MediaRef): Promise<SaveResult> {
    let p = this.done.get(ref.original);
    if (!p) {
      p = this.fetch(ref).then((r) => {
        if (!r.ok) this.skipped.push({ url: ref.url, reason: r.reason, detail: r.detail });
        return r;
      });
      this.done.set(ref.original, p);
    }
    return p;
  }

  private async cleanUp(): Promise<void> {
    if (this.dir) await rm(await this.dir, { recursive: true, force: true }).catch(() => undefined);
  }

  private async fetch(ref: MediaRef): Promise<SaveResult> {
    const { maxRunBytes } = this.opts;
    if (this.bytes >= maxRunBytes) return { ok: false, reason: 'run_limit', detail: 'not fetched' };
    await this.written;
    await writerReady(this.out);
    if (this.out.destroyed) return { ok: false, reason: 'failed', detail: 'the archive was closed' };
    this.dir ??= mkdtemp(join(tmpdir(), 'threadmark-zip-'));
    let spooled: Spooled;
    try {
      const file = await openMedia(ref.original, this.opts.payer, this.opts);
      if (this.out.destroyed) file.body.destroy();
      this.current = file.body;
      spooled = await spool(file.body, await this.dir, (size) => {
        if (this.bytes + size > maxRunBytes) throw new ArchiveFull();
      });
    } catch (e) {
      if (e instanceof ArchiveFull) return { ok: false, reason: 'run_limit', detail: 'not added' };
      // A payer's refusal (its allowance used up) leaves the file out like any failed fetch.
      const f = refusalOf(e instanceof AllowanceRefused ? new MediaFetchFailed('failed', toProblem(e).detail) : e);
      return { ok: false, reason: f.reason, detail: f.message };
    } finally {
      this.current = undefined;
    }
    const path = `${ATTACHMENTS}/${spooled.name}`;
    if (this.names.has(spooled.name)) {
      await unlink(spooled.path).catch(() => undefined);
      return { ok: true, path, bytes: spooled.size, fetched: true };
    }
    this.names.add(spooled.name);
    this.bytes += spooled.size;
    this.written = new Promise<void>((resolve) => {
      const read = () => {
        this.out.off('close', read);
        resolve();
      };
      this.out.once('close', read);
      this.zip.addReadStreamLazy(path, { compress: false, size: spooled.size }, (give) => {
        const input = createReadStream(spooled.path);
        input.once('close', () => {
          void unlink(spooled.path).catch(() => undefined);
          read();
        });
        give(null, input);
      });
    });
    return { ok: true, path, bytes: spooled.size, fetched: true };
  }
}

export interface ZipMediaOptions extends MediaFetchOptions {
  /** The most bytes of media one archive holds. */
  maxRunBytes: number;
  /** Who the export's media fetches are made for. */
  payer: Payer;
}

export interface ZipOptions {
  baseUrl: string;
  /** With media=local: where media are fetched from, for whom, and the most bytes one archive holds. */
  media?: ZipMediaOptions;
}

function noteOf(post: Post, baseUrl: string): { name: string; body: string } {
  const read: PostRead = {
    requested: post,
    parents: [],
    thread: [post],
    replies: [],
    repliesMode: 'off',
    source: 'export',
    warnings: [],
  };
  return { name: noteFileName(post), body: renderPostObsidian(read, { full: false, userinfo: 'off', baseUrl }) };
}

/** The archive, streamed: entries are added as posts arrive; a client that goes away stops the walk. */
export function presentExportZip(r: ExportReply, opts: ZipOptions): Rendered {
  const yazl = engines.yazl();
  const zip = new yazl.ZipFile();
  // yazl's output is a PassThrough: writable, though typed only as readable.
  const out = zip.outputStream as Readable & Writable;
  const media = opts.media ? new ZipMedia(zip, out, opts.media) : undefined;
  let gone = false;
  out.once('close', () => (gone = true));
  const fill = async () => {
    const used = new Set<string>();
    let step = r.first;
    while (!step.done && !gone) {
      // The walk reads no further page while the socket takes nothing.
      await writerReady(out);
      if (gone) break;
      const post = step.value.repostOf ?? step.value;
      const note = noteOf(post, opts.baseUrl);
      if (media) note.body = (await withLocalMedia(media, note.body, post, 'obsidian')).body;
      // A repost and its original make the same note: stored once.
      if (!used.has(note.name)) {
        used.add(note.name);
        zip.addBuffer(Buffer.from(note.body, 'utf8'), `${note.name}.md`);
      }
      step = await r.walk.next();
    }
    if (step.done) {
      const summary = {
        end: endLine(step.value, r.problemOf),
        ...(media ? { media: { bytes: media.bytes, skipped: media.skipped } } : {}),
      };
      zip.addBuffer(Buffer.from(`${JSON.stringify(summary, null, 2)}\n`), 'export.json');
    } else await r.walk.return(undefined as never);
    zip.end();
  };
  fill().catch((e: unknown) => out.destroy(e as Error));
  return { body: '', stream: zip.outputStream, contentType: ZIP_TYPE, headers: r.headers };
}
