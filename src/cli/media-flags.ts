// --media and its limits, shared by `read --out` and `export --vault`: the store the notes' media go to, progress
// on a terminal, a warning for each file that is gone, and the summary of what was saved and skipped.
import { MediaStore, DEFAULT_MEDIA_LIMITS, type MediaLimits, type MediaStoreOptions } from '../media/store.ts';
import { parseMediaHosts } from '../media/hosts.ts';
import { CliError, EXIT, usageError } from './exit.ts';
import type { CliIO } from './output.ts';

export interface MediaFlags {
  media?: boolean;
  mediaMaxFile?: string;
  mediaMaxTotal?: string;
}

const UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** `500KB`, `20MB`, `1.5GB` or a number of bytes (units are 1024-based). */
export function parseSize(flag: string, raw: string): number {
  const m = /^([0-9]+(?:\.[0-9]+)?)\s*([kmg]?b)?$/i.exec(raw.trim());
  const n = m ? Math.floor(Number(m[1]) * UNITS[(m[2] ?? '').toLowerCase()]!) : NaN;
  if (!Number.isFinite(n) || n < 1)
    throw usageError(`${flag} takes a size such as 500KB, 20MB or 1GB (got ${JSON.stringify(raw)})`);
  return n;
}

/** Checked before any connection is opened. `needs` names the flag --media goes with. */
export function checkMediaFlags(flags: MediaFlags, hasTarget: boolean, needs: string): void {
  if (flags.media && !hasTarget) throw usageError(`--media needs ${needs}`);
  if ((flags.mediaMaxFile !== undefined || flags.mediaMaxTotal !== undefined) && !flags.media)
    throw usageError('--media-max-file and --media-max-total need --media');
  mediaLimits(flags);
}

function mediaLimits(flags: MediaFlags): MediaLimits {
  return {
    maxFileBytes:
      flags.mediaMaxFile === undefined
        ? DEFAULT_MEDIA_LIMITS.maxFileBytes
        : parseSize('--media-max-file', flags.mediaMaxFile),
    maxRunBytes:
      flags.mediaMaxTotal === undefined
        ? DEFAULT_MEDIA_LIMITS.maxRunBytes
        : parseSize('--media-max-total', flags.mediaMaxTotal),
  };
}

const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;

export interface MediaSession {
  store: MediaStore;
  /** A short state for a progress line: `12 media files, 3.4 MB`. */
  state(): string;
  /** The closing lines on stderr: what was saved, reused and skipped. */
  finish(): void;
}

/**
 * The store for a vault folder, or undefined without --media. `redraw` is the progress display of the command
 * (on a terminal it shows `state()`); warnings for gone or failing files go to stderr as they happen.
 */
export function openMedia(
  flags: MediaFlags,
  vault: string,
  io: CliIO,
  redraw: (() => void) | undefined,
  warn: (line: string) => void,
  /** Files copied from an archive instead of fetched. */
  local?: MediaStoreOptions['local'],
): MediaSession | undefined {
  if (!flags.media) return undefined;
  // Without a progress display of the command's own, a line of its own on a terminal, redrawn in place.
  const err = io.stderr;
  let drawn = false;
  const ownLine = () => {
    if (!err.isTTY || !err.control) return;
    err.control('\r\x1b[K');
    err.write(`threadmark: ${session.state()}`);
    drawn = true;
  };
  const endLine = () => {
    if (drawn && err.control) err.control('\r\x1b[K');
    drawn = false;
  };
  const hosts = io.env.THREADMARK_MEDIA_HOSTS ? parseMediaHosts(io.env.THREADMARK_MEDIA_HOSTS) : {};
  if (typeof hosts === 'string') throw new CliError('invalid_config', `THREADMARK_MEDIA_HOSTS ${hosts}`, EXIT.usage);
  let store: MediaStore;
  try {
    store = new MediaStore(vault, {
      hosts,
      limits: mediaLimits(flags),
      ...(local ? { local } : {}),
      onChange: redraw ?? ownLine,
      onSkip: (ref, r) => {
        endLine();
        if (r.reason === 'gone' || r.reason === 'failed')
          warn(
            `threadmark: warning: ${ref.url} ${r.reason === 'gone' ? 'is gone' : `could not be fetched (${r.detail})`}; the note keeps its original URL\n`,
          );
      },
    });
  } catch (e) {
    throw new CliError('vault_path', (e as Error).message, EXIT.failure);
  }
  const session: MediaSession = {
    store,
    state: () => `${store.fetched + store.reused} media files, ${mb(store.bytes)}`,
    finish: () => {
      endLine();
      io.stderr.write(
        `threadmark: media: ${store.fetched} ${local ? 'copied from the archive' : 'fetched'} (${mb(store.bytes)}), ${store.reused} already in ${store.dir}\n`,
      );
      for (const line of store.summary()) io.stderr.write(`threadmark: media: ${line}\n`);
    },
  };
  return session;
}
