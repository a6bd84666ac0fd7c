// Media files saved into a vault's `attachments/` folder under their content hash, so a file several posts share
// is stored once. A manifest maps each original URL to its file: a later run that finds the file with the right
// hash does not fetch it again. Sizes are bounded per file and per run; what is not saved is counted by reason.
import { createHash } from 'node:crypto';
import {
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import type { MediaRef } from '../domain/media-refs.ts';
import { fetchAddress, type MediaHostMap } from './hosts.ts';
import { sniff } from './sniff.ts';

export const ATTACHMENTS = 'attachments';
const MANIFEST = '.threadmark-media.json';
const MiB = 1024 * 1024;

export interface MediaLimits {
  /** Largest file saved; larger ones are skipped. */
  maxFileBytes: number;
  /** Bytes fetched in one run; once reached, the rest is skipped. */
  maxRunBytes: number;
}

export const DEFAULT_MEDIA_LIMITS: MediaLimits = { maxFileBytes: 100 * MiB, maxRunBytes: 2048 * MiB };

export type SkipReason = 'too_large' | 'run_limit' | 'gone' | 'failed' | 'not_x_media' | 'not_in_archive';

export const SKIP_WORDS: Record<SkipReason, string> = {
  too_large: 'over the per-file limit',
  run_limit: 'the per-run limit was reached',
  gone: 'gone from X (404)',
  failed: 'could not be fetched',
  not_x_media: "not on X's media hosts",
  not_in_archive: 'not in the archive',
};

export type Saved = { ok: true; path: string; bytes: number; fetched: boolean };
export type Skipped = { ok: false; reason: SkipReason; detail: string };
export type SaveResult = Saved | Skipped;

/** A file a run copies instead of fetching (an archive's own media): its size and its bytes. */
export interface LocalMedia {
  size: number;
  open(): Promise<AsyncIterable<Uint8Array>>;
}

export interface MediaStoreOptions {
  hosts: MediaHostMap;
  limits: MediaLimits;
  userAgent?: string;
  /** Longest one file may take to arrive. */
  timeoutMs?: number;
  /** Called after each file, for progress. */
  onChange?: () => void;
  /** Called once for each URL that is not saved. */
  onSkip?: (ref: MediaRef, skipped: Skipped) => void;
  /**
   * Where files come from instead of the network (an archive's media): nothing is fetched, and a file it does not
   * have is skipped.
   */
  local?: (ref: MediaRef) => LocalMedia | undefined;
}

interface Manifest {
  version: 1;
  /** Original URL → file name in attachments/. */
  files: Record<string, string>;
}

const NAME = /^[0-9a-f]{32}\.[a-z0-9]{2,4}$/;

class SkipError extends Error {
  constructor(
    readonly reason: SkipReason,
    detail: string,
  ) {
    super(detail);
  }
}

export class MediaStore {
  readonly dir: string;
  fetched = 0;
  reused = 0;
  bytes = 0;
  readonly skipped = new Map<SkipReason, string[]>();
  private readonly manifest: Manifest;
  private readonly done = new Map<string, Promise<SaveResult>>();
  private runLimitHit = false;
  private seq = 0;

  constructor(
    vault: string,
    private readonly opts: MediaStoreOptions,
  ) {
    this.dir = join(resolve(vault), ATTACHMENTS);
    mkdirSync(this.dir, { recursive: true });
    // A link here could send every file somewhere outside the vault.
    if (!lstatSync(this.dir).isDirectory())
      throw new Error(`${this.dir} is not a folder (a link?); refusing to write media through it`);
    this.manifest = this.readManifest();
  }

  private readManifest(): Manifest {
    try {
      const m = JSON.parse(readFileSync(join(this.dir, MANIFEST), 'utf8')) as Partial<Manifest>;
      if (m.version === 1 && m.files && typeof m.files === 'object') {
        const files: Record<string, string> = {};
        for (const [k, v] of Object.entries(m.files)) if (typeof v === 'string' && NAME.test(v)) files[k] = v;
        return { version: 1, files };
      }
    } catch {
      // none yet, or unreadable: every file is fetched (and checked) again
    }
    return { version: 1, files: {} };
  }

  private writeManifest(): void {
    const tmp = join(this.dir, `${MANIFEST}.${process.pid}.tmp`);
    writeFileSync(tmp, JSON.stringify(this.manifest));
    renameSync(tmp, join(this.dir, MANIFEST));
  }

  /** The file of a URL, fetched unless an earlier run left it with the right hash; each URL once per run. */
  save(ref: MediaRef): Promise<SaveResult> {
    let p = this.done.get(ref.original);
    if (!p) {
      p = this.saveOnce(ref).then((r) => {
        if (!r.ok) {
          const list = this.skipped.get(r.reason) ?? [];
          list.push(`${ref.url} (${r.detail})`);
          this.skipped.set(r.reason, list);
          this.opts.onSkip?.(ref, r);
        }
        this.opts.onChange?.();
        return r;
      });
      this.done.set(ref.original, p);
    }
    return p;
  }

  private present(name: string | undefined): boolean {
    if (!name) return false;
    const path = join(this.dir, name);
    try {
      if (!lstatSync(path).isFile()) return false;
      return createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 32) === name.split('.')[0];
    } catch {
      return false;
    }
  }

  private async saveOnce(ref: MediaRef): Promise<SaveResult> {
    const known = this.manifest.files[ref.original];
    if (known && this.present(known)) {
      this.reused++;
      return { ok: true, path: `${ATTACHMENTS}/${known}`, bytes: 0, fetched: false };
    }
    const file = this.opts.local?.(ref);
    const address = this.opts.local ? undefined : fetchAddress(ref.original, this.opts.hosts);
    if (this.opts.local && !file) return { ok: false, reason: 'not_in_archive', detail: 'not copied' };
    if (!this.opts.local && !address) return { ok: false, reason: 'not_x_media', detail: 'not fetched' };
    if (this.runLimitHit) return { ok: false, reason: 'run_limit', detail: 'not fetched' };
    try {
      let kept: { name: string; size: number };
      if (file) {
        this.checkDeclared(file.size);
        kept = await this.keep(await file.open(), () => undefined);
      } else kept = await this.fetchTo(address!);
      const { name, size } = kept;
      this.manifest.files[ref.original] = name;
      this.writeManifest();
      this.fetched++;
      return { ok: true, path: `${ATTACHMENTS}/${name}`, bytes: size, fetched: true };
    } catch (e) {
      if (e instanceof SkipError) return { ok: false, reason: e.reason, detail: e.message };
      return { ok: false, reason: 'failed', detail: (e as Error).message };
    }
  }

  /** Refuses a file whose announced size is over the per-file limit or past the run's. */
  private checkDeclared(declared: number): void {
    const { maxFileBytes, maxRunBytes } = this.opts.limits;
    if (declared > maxFileBytes) throw new SkipError('too_large', `${declared} bytes`);
    if (this.bytes + (Number.isFinite(declared) ? declared : 0) > maxRunBytes) {
      this.runLimitHit = true;
      throw new SkipError('run_limit', 'not fetched');
    }
  }

  private async fetchTo(address: string): Promise<{ name: string; size: number }> {
    const res = await fetch(address, {
      redirect: 'manual',
      signal: AbortSignal.timeout(this.opts.timeoutMs ?? 120_000),
      headers: this.opts.userAgent ? { 'user-agent': this.opts.userAgent } : {},
    });
    const drop = () => res.body?.cancel().catch(() => undefined);
    if (res.status === 404 || res.status === 410) {
      await drop();
      throw new SkipError('gone', `HTTP ${res.status}`);
    }
    if (res.status !== 200 || !res.body) {
      await drop();
      throw new SkipError('failed', `HTTP ${res.status}`);
    }
    try {
      this.checkDeclared(Number(res.headers.get('content-length') ?? NaN));
    } catch (e) {
      await drop();
      throw e;
    }
    return this.keep(res.body, drop);
  }

  /** Streams a file's bytes to a temporary file, then moves it to its name by content hash (unless already there). */
  private async keep(body: AsyncIterable<Uint8Array>, drop: () => unknown): Promise<{ name: string; size: number }> {
    const { maxFileBytes, maxRunBytes } = this.opts.limits;
    const tmp = join(this.dir, `.partial-${process.pid}-${++this.seq}`);
    const fd = openSync(tmp, 'wx');
    const hash = createHash('sha256');
    let size = 0;
    let head = Buffer.alloc(0);
    let kept = false;
    let open = true;
    try {
      for await (const chunk of body) {
        const b = Buffer.from(chunk);
        size += b.length;
        if (size > maxFileBytes) throw new SkipError('too_large', `over ${maxFileBytes} bytes`);
        if (this.bytes + size > maxRunBytes) {
          this.runLimitHit = true;
          throw new SkipError('run_limit', 'cut off');
        }
        if (head.length < 16) head = Buffer.concat([head, b.subarray(0, 16)]);
        hash.update(b);
        writeSync(fd, b);
      }
      closeSync(fd);
      open = false;
      const name = `${hash.digest('hex').slice(0, 32)}.${sniff(head).ext}`;
      const target = join(this.dir, name);
      let existing;
      try {
        existing = lstatSync(target);
      } catch {
        existing = undefined;
      }
      if (existing && !existing.isFile())
        throw new SkipError('failed', `${name} is taken by something that is not a file`);
      // Same hash, same bytes: a file another post already brought stays as it is; a damaged one is replaced.
      if (!existing || !this.present(name)) {
        renameSync(tmp, target);
        kept = true;
      }
      this.bytes += size;
      return { name, size };
    } catch (e) {
      if (open) closeSync(fd);
      await drop();
      throw e;
    } finally {
      if (!kept) {
        try {
          unlinkSync(tmp);
        } catch {
          // gone already
        }
      }
    }
  }

  /** What was not saved, by reason: a line each, with a few of the URLs. */
  summary(): string[] {
    return [...this.skipped].map(([reason, urls]) => {
      const shown = urls.slice(0, 3).join(', ');
      return `${urls.length} skipped: ${SKIP_WORDS[reason]}: ${shown}${urls.length > 3 ? `, and ${urls.length - 3} more` : ''}`;
    });
  }
}
