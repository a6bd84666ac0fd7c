// GET /media/{ref}: X media through the service, under addresses it signed (THREADMARK_MEDIA_PROXY). The address
// is checked before anything else: an unsigned, altered, expired or non-X address never reaches an upstream.
import { z } from 'zod';
import { defineRoute, NO_PARAMS, type RouteDecl, type RouteDef, type Rendered } from '../../contract/route-decl.ts';
import { Problem } from '../../problems/problem.ts';
import type { MediaFile } from '../../sources/media-proxy.ts';
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
    '`Accept-Ranges: bytes`, a single `Range` as 206 with `Content-Range` (416 when unsatisfiable). Files are kept ' +
    'in memory within THREADMARK_MEDIA_CACHE_MB. Charged to the media-ip allowance, not api-ip.',
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

function answer(file: MediaFile, range: string | undefined, maxAgeS: number): Rendered {
  const size = file.bytes.length;
  const headers: Record<string, string> = {
    'accept-ranges': 'bytes',
    'cache-control': `public, max-age=${maxAgeS}, immutable`,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cross-origin-resource-policy': 'cross-origin',
  };
  const r = byteRange(range, size);
  if (r === 'unsatisfiable') {
    return {
      status: 416,
      body: '',
      contentType: file.contentType,
      headers: { ...headers, 'content-range': `bytes */${size}` },
    };
  }
  if (r) {
    return {
      status: 206,
      body: '',
      bytes: file.bytes.subarray(r.start, r.end + 1),
      contentType: file.contentType,
      headers: { ...headers, 'content-range': `bytes ${r.start}-${r.end}/${size}` },
    };
  }
  return { body: '', bytes: file.bytes, contentType: file.contentType, headers };
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
    const file = await proxy.get(check.url);
    const leftS = Math.max(0, check.exp - Math.floor(Date.now() / 1000));
    const range = ctx.req.headers.range;
    return answer(file, typeof range === 'string' ? range : undefined, Math.min(leftS, 86400));
  }),
];
