// X's media hosts (pbs.twimg.com images, video.twimg.com MP4s, abs.twimg.com static files) under /twimg/<host>:
// every path answers bytes of its own, so content hashes tell files apart; the `media` target counts the fetches
// and takes faults (a 404 stands for media that is gone).
import { mp4For, pngFor } from '../media-bytes.ts';
import type { RouteModule, SimResponse } from './types.ts';

const PREFIX = '/twimg';
const HOSTS = { pbs: 'pbs.twimg.com', video: 'video.twimg.com', abs: 'abs.twimg.com' } as const;

/** THREADMARK_MEDIA_HOSTS value mapping each X media host to the simulator at `base`. */
export function mediaHostsFor(base: string): string {
  return Object.entries(HOSTS)
    .map(([short, host]) => `${host}=${base}${PREFIX}/${short}`)
    .join(',');
}

function bytes(body: Buffer, type: string): SimResponse {
  return { status: 200, headers: { 'content-type': type, 'cache-control': 'max-age=604800' }, body };
}

export const mediaRoutes: RouteModule = {
  target: 'media',
  prefix: PREFIX,
  handle(req) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return null;
    const m = /^\/(pbs|video|abs)(\/[A-Za-z0-9_./-]+)$/.exec(req.path);
    if (!m || m[2]!.includes('..')) return null;
    const [, host, path] = m;
    if (host === 'video') return path!.endsWith('.mp4') ? bytes(mp4For(path!), 'video/mp4') : null;
    return bytes(pngFor(`${host}${path}`), 'image/png');
  },
};
