// Media files saved into a vault's `attachments/` folder under their content hash, so a file several posts share
// is stored once. A manifest maps each original URL to its file: a later run that finds the file with the right
// hash does not fetch it again. Sizes are bounded per file and per run; what is not saved is counted by reason.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { MediaRef } from '../domain/media-refs.ts';
import { MediaFetchFailed, openMedia, refusalOf, type MediaBody } from './fetch.ts';
import { fetchAddress, type MediaHostMap } from './hosts.ts';
import { FREE, LOCAL, type ChargeMedia, type Payer } from './payer.ts';
import { spool, type Spooled } from './spool.ts';

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

/** A file at hand (an archive's media), copied instead of fetched. */
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
  /** Who the fetches are made for, and what charges them (none: the CLI on its own machine). */
  payer?: Payer;
  charge?: ChargeMedia;
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
    if (this.opts.local && !file) return { ok: false, reason: 'not_in_archive', detail: 'not copied' };
    if (!this.opts.local && !fetchAddress(ref.original, this.opts.hosts))
      return { ok: false, reason: 'not_x_media', detail: 'not fetched' };
    if (this.runLimitHit) return { ok: false, reason: 'run_limit', detail: 'not fetched' };
    try {
      const { name, size } = file ? await this.copyFrom(file) : await this.fetchTo(ref.original);
      this.manifest.files[ref.original] = name;
      this.writeManifest();
      this.fetched++;
      return { ok: true, path: `${ATTACHMENTS}/${name}`, bytes: size, fetched: true };
    } catch (e) {
      if (e instanceof SkipError) return { ok: false, reason: e.reason, detail: e.message };
      return { ok: false, reason: 'failed', detail: (e as Error).message };
    }
  }

  private async copyFrom(file: LocalMedia): Promise<{ name: string; size: number }> {
    const { maxFileBytes } = this.opts.limits;
    if (file.size > maxFileBytes) throw new SkipError('too_large', `${file.size} bytes`);
    return this.keep(file.size, Readable.from(await file.open()));
  }

  private async fetchTo(url: string): Promise<{ name: string; size: number }> {
    const { maxFileBytes } = this.opts.limits;
    let file: MediaBody;
    try {
      file = await openMedia(url, this.opts.payer ?? LOCAL, {
        hosts: this.opts.hosts,
        maxFileBytes,
        timeoutMs: this.opts.timeoutMs ?? 120_000,
        ...(this.opts.userAgent ? { userAgent: this.opts.userAgent } : {}),
        charge: this.opts.charge ?? FREE,
      });
    } catch (e) {
      throw e instanceof MediaFetchFailed ? new SkipError(e.reason, e.message) : e;
    }
    return this.keep(file.size, file.body);
  }

  /** Spools a file's bytes to a temporary file, then moves it to its name by content hash (unless already there). */
  private async keep(declared: number | undefined, body: Readable): Promise<{ name: string; size: number }> {
    const { maxFileBytes, maxRunBytes } = this.opts.limits;
    if (this.bytes + (declared ?? 0) > maxRunBytes) {
      body.destroy();
      this.runLimitHit = true;
      throw new SkipError('run_limit', 'not fetched');
    }
    let spooled: Spooled;
    try {
      spooled = await spool(body, this.dir, (size) => {
        if (size > maxFileBytes) throw new SkipError('too_large', `over ${maxFileBytes} bytes`);
        if (this.bytes + size <= maxRunBytes) return;
        this.runLimitHit = true;
        throw new SkipError('run_limit', 'cut off');
      });
    } catch (e) {
      if (e instanceof SkipError) throw e;
      const refused = refusalOf(e);
      throw new SkipError(refused.reason, refused.message);
    }
    const { name, size } = spooled;
    let kept = false;
    try {
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
        renameSync(spooled.path, target);
        kept = true;
      }
      this.bytes += size;
      return { name, size };
    } finally {
      if (!kept) {
        try {
          unlinkSync(spooled.path);
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
