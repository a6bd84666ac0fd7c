// GET /media/{ref}: X media through the service, under addresses it signed (THREADMARK_MEDIA_PROXY). The address
// is checked before anything else: an unsigned, altered, expired or non-X address never reaches an upstream.
import { Readable } from 'node:stream';
import { z } from 'zod';
import { defineRoute, NO_PARAMS, type RouteDecl, type RouteDef, type Rendered } from '../../contract/route-decl.ts';
import { Problem } from '../../problems/problem.ts';
import type { MediaServed } from '../../media/proxy.ts';
import { byteSlice } from '../../media/byte-slice.ts';
import { code } from '../../contract/params/common.ts';

export const mediaDecl = {
  operationId: 'proxyMedia',
  path: '/media/{token}',
  surface: 'v1',
  summary: 'X media through this service (signed addresses)',
  description:
    'With THREADMARK_MEDIA_PROXY on, feeds, HTML pages and link previews name photos, videos and images at ' +
    '`/media/{ref}.{exp}.{sig}` (ref: the media URL in base64url; exp: Unix seconds; sig: HMAC-SHA256 of both under ' +
    'a secret only the service holds, base64url). Only addresses the service issued, unexpired, for pbs.twimg.com, ' +
    'video.twimg.com or abs.twimg.com are served; anything else is refused without fetching. Answers the upstream ' +
    'file with its content type (plain image, video or audio types; otherwise the type its first bytes show), ' +
    '`Accept-Ranges: bytes`, a single `Range` as 206 with `Content-Range` (416 when unsatisfiable). Files up to a ' +
    'sixteenth of THREADMARK_MEDIA_CACHE_MB are kept in memory within it; larger ones are streamed through, and ' +
    'bytes on their way are bounded by THREADMARK_MEDIA_INFLIGHT_MB (503 media_proxy_busy with Retry-After past ' +
    'it). Charged to the media-ip allowance, not api-ip: a point per request, and one more per file fetched from X.',
  tags: ['media'],
  params: z.object({
    token: z
      .string(code('invalid_media_url'))
      .max(4200, code('invalid_media_url'))
      .describe('The signed address as issued: the media URL in base64url, its expiry and signature, dot-separated.'),
  }),
  query: NO_PARAMS,
  representations: [],
  keyAware: false,
  policy: 'media-ip',
  noExample:
    'No runnable example: media addresses are issued by the service (in feeds, pages and JSON bodies) when the proxy is on.',
  errors: [
    'media_proxy_disabled',
    'invalid_media_url',
    'invalid_media_signature',
    'media_url_expired',
    'media_too_large',
    'media_proxy_busy',
    'rate_limited',
    'not_found',
    'upstream_error',
  ],
  fixed: { mediaType: 'application/octet-stream', alternatives: ['image/jpeg', 'image/png', 'video/mp4'] },
} satisfies RouteDecl;

const WHY = {
  not_x_media: ['invalid_media_url', 'The address names no media of X.'],
  unsigned: ['invalid_media_signature', 'The address carries no expiry and signature.'],
  forged: ['invalid_media_signature', 'The signature does not match the address.'],
  expired: ['media_url_expired', 'The address has expired.'],
} as const;

/** A single `bytes=` range of a file of `size` bytes; undefined for none or one the 200 should answer instead. */
export function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges or another unit: the whole file answers, as RFC 9110 allows.
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

function fileHeaders(maxAgeS: number): Record<string, string> {
  return {
    'accept-ranges': 'bytes',
    'cache-control': `public, max-age=${maxAgeS}, immutable`,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cross-origin-resource-policy': 'cross-origin',
  };
}

/**
 * The answer for a file held whole or streamed through. A range of a stream is cut from it as it passes; a stream
 * whose length the upstream did not declare answers whole, as RFC 9110 allows. The length is sent whenever known.
 */
function answer(served: MediaServed, range: string | undefined, maxAgeS: number): Rendered {
  const headers = fileHeaders(maxAgeS);
  const held = 'file' in served ? served.file : undefined;
  const streamed = 'stream' in served ? served.stream : undefined;
  const contentType = (held ?? streamed)!.contentType;
  const size = held ? held.bytes.length : streamed!.size;
  const r = size === undefined ? undefined : byteRange(range, size);
  const part = (start: number, end: number) =>
    held ? { bytes: held.bytes.subarray(start, end + 1) } : { stream: byteSlice(streamed!.body, start, end) };
  if (r === 'unsatisfiable') {
    streamed?.body.destroy();
    return { status: 416, body: '', contentType, headers: { ...headers, 'content-range': `bytes */${size}` } };
  }
  if (r) {
    return {
      status: 206,
      body: '',
      ...part(r.start, r.end),
      contentType,
      headers: {
        ...headers,
        'content-range': `bytes ${r.start}-${r.end}/${size}`,
        'content-length': String(r.end - r.start + 1),
      },
    };
  }
  return {
    body: '',
    ...(held ? { bytes: held.bytes } : { stream: streamed!.body }),
    contentType,
    headers: size === undefined ? headers : { ...headers, 'content-length': String(size) },
  };
}

export const mediaRoutes: RouteDef[] = [
  defineRoute(mediaDecl, async (ctx) => {
    const { proxy, signer } = ctx.services.media;
    if (!proxy) throw new Problem('media_proxy_disabled', 'This deployment does not proxy media.');
    const check = signer.check(ctx.params.token);
    if (!check.ok) {
      const [c, detail] = WHY[check.why];
      throw new Problem(c, detail);
    }
    const served = await proxy.get(check.url, ctx.guards.payer());
    const leftS = Math.max(0, check.exp - Math.floor(Date.now() / 1000));
    const range = typeof ctx.req.headers.range === 'string' ? ctx.req.headers.range : undefined;
    const maxAgeS = Math.min(leftS, 86400);
    const out = answer(served, range, maxAgeS);
    // A HEAD sends no body: the file is let go at once rather than read to the end and dropped (an empty stream in
    // its place, so no entity tag is made up for a body never read).
    if (ctx.req.method === 'HEAD' && out.stream) {
      (out.stream as Readable).destroy();
      out.stream = Readable.from([]);
    }
    return out;
  }),
];
