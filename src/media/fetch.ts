// One media file of X's media hosts, fetched through the outbound client for a payer: opened as a stream capped at
// the largest file the caller takes, redirects not followed, or refused with the reason the caller reports.
import type { Readable } from 'node:stream';
import { openStream } from '../net/client.ts';
import { NetError } from '../net/errors.ts';
import { fetchAddress, type MediaHostMap } from './hosts.ts';
import type { ChargeMedia, Payer } from './payer.ts';

export interface MediaFetchOptions {
  hosts: MediaHostMap;
  /** Largest file taken; a larger one is refused as `too_large`, whether it says so up front or not. */
  maxFileBytes: number;
  /** Longest the head of the answer, then any pause in its body, may take. */
  timeoutMs: number;
  userAgent?: string;
  charge: ChargeMedia;
}

export type MediaRefusal = 'not_x_media' | 'gone' | 'too_large' | 'failed';

export class MediaFetchFailed extends Error {
  constructor(
    readonly reason: MediaRefusal,
    detail: string,
    readonly status?: number,
  ) {
    super(detail);
    this.name = 'MediaFetchFailed';
  }
}

export interface MediaBody {
  /** The upstream's content type, as it said it. */
  type: string | null;
  /** The length it declared, when it did. */
  size?: number;
  /** The bytes, capped at `maxFileBytes`; destroy it to let go of the connection. */
  body: Readable;
}

/**
 * Opens the file of an X media URL: charged to `payer` first (its refusal rejects as it is), then a GET with no
 * redirect followed. Rejects with MediaFetchFailed for what is not a served file (not X's, gone, too large, any
 * other status or transport failure). A body that passes the cap later fails with a NetError of kind `too_large`.
 */
export async function openMedia(url: string, payer: Payer, opts: MediaFetchOptions): Promise<MediaBody> {
  const address = fetchAddress(url, opts.hosts);
  if (!address) throw new MediaFetchFailed('not_x_media', "not on X's media hosts");
  await opts.charge(payer);
  let res;
  try {
    res = await openStream(address, {
      headers: opts.userAgent ? { 'user-agent': opts.userAgent } : {},
      timeoutMs: opts.timeoutMs,
      idleMs: opts.timeoutMs,
      maxBytes: opts.maxFileBytes,
    });
  } catch (e) {
    throw refusalOf(e);
  }
  if (res.status !== 200) {
    res.body.destroy();
    const gone = res.status === 404 || res.status === 410;
    throw new MediaFetchFailed(gone ? 'gone' : 'failed', `HTTP ${res.status}`, res.status);
  }
  const declared = Number(res.headers.get('content-length') ?? NaN);
  return {
    type: res.headers.get('content-type'),
    ...(Number.isFinite(declared) ? { size: declared } : {}),
    body: res.body,
  };
}

/** A failure while opening or reading a media body, as the reason a caller reports. */
export function refusalOf(e: unknown): MediaFetchFailed {
  if (e instanceof MediaFetchFailed) return e;
  if (e instanceof NetError && e.kind === 'too_large')
    return new MediaFetchFailed(
      'too_large',
      e.opts.declared !== undefined ? `${e.opts.declared} bytes` : `over ${e.opts.limit} bytes`,
    );
  return new MediaFetchFailed('failed', (e as Error).message || String(e));
}
