// A rendered note rewritten to embed media saved beside it: each X media link whose file is in the vault becomes
// an embed of the local file (Obsidian `![[…]]`, or a relative Markdown image or link), with the original URL kept
// next to it; files the note held only in its data (avatars, banners, card images) are listed at its end.
import type { MediaRef } from '../domain/media-refs.ts';

export type LocalStyle = 'obsidian' | 'markdown';

export interface LocalFile {
  ref: MediaRef;
  /** Path from the note's folder, with `/` separators, e.g. `attachments/3f….png`. */
  path: string;
}

/** How a link's URL is keyed: its parsed form, so the renderer's escaping (`%28` for `(`) still matches. */
export function mediaKey(url: string): string {
  try {
    return new URL(url).href.replace(/[()\\]/g, (c) => (c === '(' ? '%28' : c === ')' ? '%29' : '%5C'));
  } catch {
    return url;
  }
}

const IS_VIDEO = /\.(mp4|mov|webm)$/i;

function embed(file: LocalFile, alt: string, style: LocalStyle): string {
  if (style === 'obsidian') return `![[${file.path}]]`;
  // Markdown viewers show images inline; a video is a link to the file.
  return IS_VIDEO.test(file.path)
    ? `[${alt || 'Video'}](${encodeURI(file.path)})`
    : `![${alt}](${encodeURI(file.path)})`;
}

const LABELS: Record<MediaRef['role'], string> = {
  photo: 'Image',
  video: 'Video',
  thumbnail: 'Still',
  avatar: 'Avatar',
  banner: 'Banner',
  card: 'Card image',
  article: 'Article image',
  file: 'File',
};

// A video's still wrapped in a link to the video, then the ▶ link: `[![alt](still)](video) `.
const STILL_LINK = /\[!\[((?:[^\]\\]|\\.)*)\]\(([^)\s]+)\)\]\(([^)\s]+)\) /g;
const IMAGE = /!\[((?:[^\]\\]|\\.)*)\]\(([^)\s]+)\)/g;
const PLAY = /\[(▶ (?:[^\]\\]|\\.)*)\]\(([^)\s]+)\)/g;

/**
 * The note with every link to a saved file replaced by its embed plus the original; `files` is keyed by
 * `mediaKey(url)`. Files no link named get an Attachments section at the end. Without files the note is unchanged.
 */
export function localiseNote(body: string, files: Map<string, LocalFile>, style: LocalStyle): string {
  if (files.size === 0) return body;
  const used = new Set<string>();
  const local = (url: string) => {
    const f = files.get(mediaKey(url));
    if (f) used.add(mediaKey(url));
    return f;
  };
  let out = body.replace(STILL_LINK, (all, alt: string, still: string, video: string) => {
    // The saved video plays in place: its still, if saved, is listed at the end rather than shown twice.
    if (files.has(mediaKey(video))) return '';
    const f = local(still);
    return f ? `${embed(f, alt, style)} · [original](${still}) ` : all;
  });
  out = out.replace(IMAGE, (all, alt: string, url: string) => {
    const f = local(url);
    return f ? `${embed(f, alt, style)} · [original](${url})` : all;
  });
  out = out.replace(PLAY, (all, label: string, url: string) => {
    const f = local(url);
    return f ? `${embed(f, label.slice(2), style)} · [${label}](${url})` : all;
  });
  const rest = [...files].filter(([k]) => !used.has(k));
  if (rest.length === 0) return out;
  const lines = rest.map(
    ([, f]) => `${embed(f, LABELS[f.ref.role], style)} · [${LABELS[f.ref.role]}](${mediaKey(f.ref.url)})`,
  );
  return `${out.trimEnd()}\n\n## Attachments\n\n${lines.join('\n')}\n`;
}
