// format=zip of the export route: a folder of Obsidian notes (one per post, named as the CLI's vault names them)
// streamed as the walk reads pages, with media=local the files they hold under attachments/ (each file once, by
// content hash) and the notes embedding them; `export.json` at the end holds the end line and what was skipped.
import { engines } from '../../engines.ts';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { ZipFile } from 'yazl';
import type { MediaRef } from '../../domain/media-refs.ts';
import type { Post } from '../../domain/models.ts';
import type { PostRead } from '../../domain/reads.ts';
import { withLocalMedia } from '../../media/note-media.ts';
import { sniff } from '../../media/sniff.ts';
import { ATTACHMENTS, type SaveResult, type SkipReason } from '../../media/store.ts';
import { noteFileName } from '../../render/note-template.ts';
import { renderPostObsidian } from '../../render/obsidian.ts';
import type { MediaProxy } from '../../sources/media-proxy.ts';
import { Problem } from '../../problems/problem.ts';
import type { Rendered } from '../../contract/rendered.ts';
import { endLine, type ExportReply } from './export.ts';

export const ZIP_TYPE = 'application/zip';

/** Media into the archive: fetched once each, stored once per content hash, bounded per run. */
class ZipMedia {
  private readonly done = new Map<string, Promise<SaveResult>>();
  private readonly names = new Set<string>();
  bytes = 0;
  readonly skipped: Array<{ url: string; reason: SkipReason; detail: string }> = [];

  constructor(
    private readonly zip: ZipFile,
    private readonly fetcher: MediaProxy,
    private readonly maxRunBytes: number,
  ) {}

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

  private async fetch(ref: MediaRef): Promise<SaveResult> {
    if (this.bytes >= this.maxRunBytes) return { ok: false, reason: 'run_limit', detail: 'not fetched' };
    let bytes: Buffer;
    try {
      bytes = (await this.fetcher.get(ref.original)).bytes;
    } catch (e) {
      const code = e instanceof Problem ? e.code : undefined;
      const reason: SkipReason = code === 'not_found' ? 'gone' : code === 'media_too_large' ? 'too_large' : 'failed';
      return { ok: false, reason, detail: (e as Error).message };
    }
    if (this.bytes + bytes.length > this.maxRunBytes) return { ok: false, reason: 'run_limit', detail: 'not added' };
    const name = `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.${sniff(bytes.subarray(0, 16)).ext}`;
    if (!this.names.has(name)) {
      this.names.add(name);
      this.bytes += bytes.length;
      this.zip.addBuffer(bytes, `${ATTACHMENTS}/${name}`, { compress: false });
    }
    return { ok: true, path: `${ATTACHMENTS}/${name}`, bytes: bytes.length, fetched: true };
  }
}

export interface ZipOptions {
  baseUrl: string;
  /** With media=local: where media are fetched from, and the most bytes one archive holds. */
  media?: { fetcher: MediaProxy; maxRunBytes: number };
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
  const media = opts.media ? new ZipMedia(zip, opts.media.fetcher, opts.media.maxRunBytes) : undefined;
  let gone = false;
  zip.outputStream.once('close', () => (gone = true));
  const fill = async () => {
    const used = new Set<string>();
    let step = r.first;
    while (!step.done && !gone) {
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
  fill().catch((e: unknown) => (zip.outputStream as Readable).destroy(e as Error));
  return { body: '', stream: zip.outputStream, contentType: ZIP_TYPE, headers: r.headers };
}
