// What the media proxy serves: a file of X's media hosts, charged to the payer who asked and fetched through the
// outbound client (bounded in size, redirects not followed). A file small enough for the cache is read whole once for
// everyone waiting on it and kept; a larger one is streamed through to its reader, so a slow reader holds a window of
// bytes rather than the file. Bytes on their way (whole reads and stream windows) are bounded in total: past that the
// proxy refuses with MediaProxyBusy (503 media_proxy_busy with Retry-After at the edge), before charging or fetching
// anything. Its failures are typed (MediaFetchFailed, MediaProxyBusy, a payer's AllowanceRefused): the edge
// (http/failures/problem-of.ts) words them for the client.
import { LRUCache } from 'lru-cache';
import { Readable } from 'node:stream';
import { AllowanceRefused } from '../domain/failures.ts';
import { openMedia, refusalOf, type MediaBody, type MediaFetchFailed } from './fetch.ts';
import type { MediaHostMap } from './hosts.ts';
import type { ChargeMedia, Payer } from './payer.ts';
import { sniff } from './sniff.ts';

export interface MediaFile {
  bytes: Buffer;
  contentType: string;
}

/** A file streamed through: its type, its length when the upstream declared one, and the bytes as they come. */
export interface MediaStream {
  contentType: string;
  size?: number;
  body: Readable;
}

export type MediaServed = { file: MediaFile } | { stream: MediaStream };

export interface MediaProxyOptions {
  hosts: MediaHostMap;
  /** Largest file served. */
  maxFileBytes: number;
  /** Bytes the cache holds at most. */
  cacheBytes: number;
  /** Bytes on their way to readers at most: files read whole for the cache plus one window per stream. */
  inFlightBytes: number;
  timeoutMs: number;
  userAgent: string;
  /** Charges each upstream fetch to the payer who asked for it. */
  charge: ChargeMedia;
}

/**
 * What one streamed file may hold in the process: the buffers between the upstream socket and the reader's (the
 * capped body's, the response's, a read of the upstream socket). Counted against the total for as long as it streams.
 */
export const STREAM_WINDOW_BYTES = 256 * 1024;
/** A file larger than this share of the cache is streamed, never kept: one file may not take the cache over. */
const CACHE_ENTRY_SHARE = 16;
/** Seconds a busy proxy asks readers to wait: streams of large files last a while. */
const BUSY_RETRY_S = 5;

/** The bytes on their way are at their bound: nothing more is charged or fetched until some are passed on. */
export class MediaProxyBusy extends Error {
  constructor(
    /** Seconds to wait before asking again. */
    readonly retryAfterS: number,
  ) {
    super('the media proxy holds as many bytes as it may');
    this.name = 'MediaProxyBusy';
  }
}

/** Types the proxy passes on; anything else is named by the file's first bytes. */
const PLAIN_TYPE = /^(image\/(jpeg|png|gif|webp|avif)|video\/(mp4|webm)|audio\/(mp4|mpeg|aac))$/;

/** The upstream's content type when it is a plain media type (parameters dropped), else what the bytes say. */
export function servedType(upstream: string | null, bytes: Buffer): string {
  const t = (upstream ?? '').split(';')[0]!.trim().toLowerCase();
  return PLAIN_TYPE.test(t) ? t : sniff(bytes.subarray(0, 16)).type;
}

export class MediaProxy {
  private readonly cache: LRUCache<string, MediaFile>;
  private readonly filling = new Map<string, Promise<MediaFile>>();
  private readonly cacheEntryBytes: number;
  private inFlight = 0;
  /** Upstream fetches made, for the metrics and the tests. */
  fetches = 0;

  constructor(private readonly opts: MediaProxyOptions) {
    this.cache = new LRUCache<string, MediaFile>({
      maxSize: opts.cacheBytes,
      sizeCalculation: (f) => Math.max(1, f.bytes.length),
    });
    this.cacheEntryBytes = Math.min(opts.maxFileBytes, Math.floor(opts.cacheBytes / CACHE_ENTRY_SHARE));
  }

  /** Bytes held for files on their way right now. */
  get bytesInFlight(): number {
    return this.inFlight;
  }

  /** The file of a (signed, so already checked) X media URL: from the cache, from a read under way, or fetched. */
  async get(url: string, payer: Payer): Promise<MediaServed> {
    const hit = this.cache.get(url);
    if (hit) return { file: hit };
    const shared = this.filling.get(url);
    if (shared) return { file: await shared };
    const held = this.take(STREAM_WINDOW_BYTES);
    let file: MediaBody;
    try {
      this.fetches++;
      file = await openMedia(url, payer, this.opts);
    } catch (e) {
      held.release();
      throw failureOf(e);
    }
    if (file.size !== undefined && file.size <= this.cacheEntryBytes && this.room(file.size)) {
      const whole = this.take(file.size);
      const read = this.readWhole(url, file).finally(() => {
        this.filling.delete(url);
        whole.release();
        held.release();
      });
      this.filling.set(url, read);
      return { file: await read };
    }
    file.body.once('close', held.release);
    return { stream: await this.typed(file) };
  }

  private room(bytes: number): boolean {
    return this.inFlight + bytes <= this.opts.inFlightBytes;
  }

  /** Counts `bytes` as on their way, or refuses (MediaProxyBusy) when the total would pass the bound. */
  private take(bytes: number): { release: () => void } {
    if (!this.room(bytes)) throw new MediaProxyBusy(BUSY_RETRY_S);
    this.inFlight += bytes;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.inFlight -= bytes;
      },
    };
  }

  private async readWhole(url: string, file: MediaBody): Promise<MediaFile> {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of file.body) chunks.push(chunk as Buffer);
    } catch (e) {
      throw failureOf(e);
    }
    const bytes = Buffer.concat(chunks);
    const served = { bytes, contentType: servedType(file.type, bytes) };
    this.cache.set(url, served);
    return served;
  }

  /** The stream with its served type; a type the upstream does not name plainly waits for the first bytes. */
  private async typed(file: MediaBody): Promise<MediaStream> {
    const size = file.size !== undefined ? { size: file.size } : {};
    const t = (file.type ?? '').split(';')[0]!.trim().toLowerCase();
    if (PLAIN_TYPE.test(t)) return { contentType: t, ...size, body: file.body };
    const peeked = await firstBytes(file.body, 16).catch((e: unknown) => {
      file.body.destroy();
      throw failureOf(e);
    });
    return { contentType: sniff(peeked.head).type, ...size, body: peeked.body };
  }
}

/**
 * The first `n` bytes of a stream (fewer if it ends sooner) and the stream to read from the start: the same one with
 * the bytes put back, or, when it already ended, one of those bytes alone.
 */
function firstBytes(body: Readable, n: number): Promise<{ head: Buffer; body: Readable }> {
  return new Promise((resolve, reject) => {
    const got: Buffer[] = [];
    let size = 0;
    const finish = (ended: boolean, err?: Error) => {
      body.off('readable', onReadable);
      body.off('end', onEnd);
      body.off('error', onError);
      if (err) return reject(err);
      const head = Buffer.concat(got);
      if (ended) return resolve({ head, body: Readable.from([head]) });
      if (head.length > 0) body.unshift(head);
      resolve({ head, body });
    };
    const onReadable = () => {
      let chunk: Buffer | null;
      while (size < n && (chunk = body.read() as Buffer | null) !== null) {
        got.push(chunk);
        size += chunk.length;
      }
      if (size >= n) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = (e: Error) => finish(false, e);
    body.on('readable', onReadable);
    body.once('end', onEnd);
    body.once('error', onError);
  });
}

/** A failure to fetch as the reason the /media/ route reports (a payer's refusal passes as it is). */
function failureOf(e: unknown): MediaFetchFailed | AllowanceRefused {
  return e instanceof AllowanceRefused ? e : refusalOf(e);
}
