// Paths built from handles and ids, written once: every representation, header and parser that turns an
// upstream-supplied handle or id into a link target goes through here, so a value that is not what it claims
// never becomes a path and encoding never throws.
import { isHandle } from './handles.ts';

// A high surrogate not followed by a low one, or a low one not preceded by a high one (UTF-16 code units).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * encodeURIComponent for any string. encodeURIComponent throws URIError on a lone surrogate, which one malformed
 * hashtag would otherwise turn into a failed page; such a code unit is encoded as U+FFFD instead.
 */
export function encodePart(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return encodeURIComponent(s.replace(LONE_SURROGATE, '\uFFFD'));
  }
}

/** `/{handle}/status/{id}`, or X's handle-less `/i/status/{id}` when the handle is not a handle. */
export function statusPath(handle: string, id: string): string {
  return isHandle(handle) ? `/${handle}/status/${encodePart(id)}` : `/i/status/${encodePart(id)}`;
}

/** `/{handle}`; for a handle that is not one, `/i/user/{id}` when the account id is known, else undefined. */
export function profilePath(handle: string, id?: string): string | undefined {
  if (isHandle(handle)) return `/${handle}`;
  return id && /^[0-9]+$/.test(id) ? `/i/user/${id}` : undefined;
}
