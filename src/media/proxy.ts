// What the media proxy serves: a file of X's media hosts fetched once (bounded in size, redirects not followed)
// and kept in a cache bounded in bytes, with the upstream's content type when it is a plain media type.
import { LRUCache } from 'lru-cache';
import { fetchAddress, type MediaHostMap } from './hosts.ts';
import { sniff } from './sniff.ts';
import { Problem } from '../problems/problem.ts';

export interface MediaFile {
  bytes: Buffer;
  contentType: string;
}

export interface MediaProxyOptions {
  hosts: MediaHostMap;
  /** Largest file served. */
  maxFileBytes: number;
  /** Bytes the cache holds at most. */
  cacheBytes: number;
  timeoutMs: number;
  userAgent: string;
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
  private readonly inFlight = new Map<string, Promise<MediaFile>>();
  /** Upstream fetches made, for the metrics and the tests. */
  fetches = 0;

  constructor(private readonly opts: MediaProxyOptions) {
    this.cache = new LRUCache<string, MediaFile>({
      maxSize: opts.cacheBytes,
      sizeCalculation: (f) => Math.max(1, f.bytes.length),
    });
  }

  /** The file of a (signed, so already checked) X media URL, from the cache or fetched once for all waiting. */
  get(url: string): Promise<MediaFile> {
    const hit = this.cache.get(url);
    if (hit) return Promise.resolve(hit);
    let p = this.inFlight.get(url);
    if (!p) {
      p = this.fetch(url).finally(() => this.inFlight.delete(url));
      this.inFlight.set(url, p);
    }
    return p;
  }

  private async fetch(url: string): Promise<MediaFile> {
    const address = fetchAddress(url, this.opts.hosts);
    if (!address)
      throw new Problem(
        'invalid_media_url',
        'Only media of pbs.twimg.com, video.twimg.com and abs.twimg.com are served.',
      );
    this.fetches++;
    let res: Response;
    try {
      res = await fetch(address, {
        redirect: 'manual',
        signal: AbortSignal.timeout(this.opts.timeoutMs),
        headers: { 'user-agent': this.opts.userAgent },
      });
    } catch (e) {
      throw new Problem('upstream_error', `X's media host did not answer (${(e as Error).message}).`);
    }
    const drop = () => res.body?.cancel().catch(() => undefined);
    if (res.status === 404 || res.status === 410) {
      await drop();
      throw new Problem('not_found', 'X no longer serves this media file.');
    }
    if (res.status !== 200 || !res.body) {
      await drop();
      throw new Problem('upstream_error', `X's media host answered ${res.status}.`);
    }
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (declared > this.opts.maxFileBytes) {
      await drop();
      throw new Problem(
        'media_too_large',
        `The file is ${declared} bytes; this service serves at most ${this.opts.maxFileBytes}.`,
      );
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Uint8Array).length;
      if (size > this.opts.maxFileBytes) {
        await drop();
        throw new Problem(
          'media_too_large',
          `The file is over ${this.opts.maxFileBytes} bytes, the most this service serves.`,
        );
      }
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
    const bytes = Buffer.concat(chunks);
    const file = { bytes, contentType: servedType(res.headers.get('content-type'), bytes) };
    this.cache.set(url, file);
    return file;
  }
}
