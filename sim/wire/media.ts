// CDN URLs and encodings for simulated media, shared by every wire format so they agree on files.
import type { SimMedia } from '../corpus-types.ts';

export interface Variant {
  bitrate?: number;
  content_type: 'video/mp4' | 'application/x-mpegURL';
  url: string;
}

export function mediaUrl(m: SimMedia): string {
  if (m.kind === 'photo') return `https://pbs.twimg.com/media/${m.key}.jpg`;
  if (m.kind === 'gif') return `https://pbs.twimg.com/tweet_video_thumb/${m.key}.jpg`;
  return `https://pbs.twimg.com/ext_tw_video_thumb/${m.id}/pu/img/${m.key}.jpg`;
}

export function variants(m: SimMedia): Variant[] {
  if (m.kind === 'photo') return [];
  if (m.kind === 'gif')
    return [{ bitrate: 0, content_type: 'video/mp4', url: `https://video.twimg.com/tweet_video/${m.key}.mp4` }];
  const base = `https://video.twimg.com/ext_tw_video/${m.id}/pu`;
  return [
    { content_type: 'application/x-mpegURL', url: `${base}/pl/${m.key}.m3u8?tag=12` },
    { bitrate: 256000, content_type: 'video/mp4', url: `${base}/vid/avc1/480x270/${m.key}.mp4?tag=12` },
    { bitrate: 832000, content_type: 'video/mp4', url: `${base}/vid/avc1/640x360/${m.key}.mp4?tag=12` },
    { bitrate: 2176000, content_type: 'video/mp4', url: `${base}/vid/avc1/1280x720/${m.key}.mp4?tag=12` },
  ];
}

export function aspectRatio(m: SimMedia): [number, number] {
  const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);
  const g = gcd(m.width, m.height);
  return [m.width / g, m.height / g];
}

/** The permalink X puts behind a media t.co link. */
export function mediaPermalink(handle: string, postId: string, m: SimMedia, index: number): string {
  return `https://x.com/${handle}/status/${postId}/${m.kind === 'photo' ? 'photo' : 'video'}/${index + 1}`;
}

export const mediaDisplayUrl = (tco: string) => `pic.x.com/${tco.slice('https://t.co/'.length)}`;
