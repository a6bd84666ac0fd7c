// Rendered responses remembered per (cached domain value, variant), so a cache hit costs a lookup instead of
// a render and a body hash. The application cache keeps domain data (every representation shares one
// entry); this is the layer above it, bounded on its own.
import { LRUCache } from 'lru-cache';
import { entityTagOf } from '../entity-tags.ts';
import type { Rendered } from '../route-decl.ts';

/** Bound on the memoised bodies (UTF-16 worst case), kept small beside the data cache's own bound. */
export const RENDER_MEMO_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Identity of a domain value: the in-process cache hands out the same object on every hit, so the object is
 * the entry's identity, and a reloaded entry is a new object (a new identity, never a stale rendering).
 */
const identities = new WeakMap<object, number>();
let nextIdentity = 0;

const renders = new LRUCache<string, Rendered>({
  maxSize: RENDER_MEMO_MAX_BYTES,
  sizeCalculation: (r) => r.body.length * 2 + (r.bytes?.length ?? 0) + 256,
});

/**
 * `render()` once per (value, variant); `variant` must name every input of the rendering besides `value`.
 * A value seen for the first time is rendered without being stored: with a shared backend (Redis) every
 * read parses a new object, and storing those would only churn the memo.
 */
export function renderOnce(value: object, variant: string, render: () => Rendered): Rendered {
  const id = identities.get(value);
  if (id === undefined) {
    identities.set(value, nextIdentity++);
    return withTag(render());
  }
  const key = `${id}|${variant}`;
  let out = renders.get(key);
  if (!out) {
    out = withTag(render());
    // Stored renders are sent many times: encode the body once here rather than on every write.
    out = { ...out, bytes: Buffer.from(out.body) };
    renders.set(key, out);
  }
  return out;
}

/** The strong validator travels with the body, so the conditional hook never hashes a memoised body again. */
function withTag(r: Rendered): Rendered {
  if (r.headers.etag) return r;
  return { ...r, headers: { ...r.headers, etag: entityTagOf(r.body) } };
}
