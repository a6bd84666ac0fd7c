// Rendered responses remembered per (cached domain value, rendering options) in the response cache, so a cache
// hit costs a lookup instead of a render and a body hash.
import { entityTagOf } from '../negotiation/entity-tags.ts';
import type { Rendered } from '../../contract/rendered.ts';
import type { ResponseSlot } from '../../stores/cache/responses.ts';

/** Estimated bytes of a stored render (UTF-16 worst case for the string, the encoded copy, the headers). */
export function renderedSize(r: Rendered): number {
  return r.body.length * 2 + (r.bytes?.length ?? 0) + 256;
}

/**
 * `render()` once per (value, options); `options` must hold every input of the rendering besides `value` (pass
 * the typed options object itself, so a new option is part of the key without anyone remembering to add it).
 * A value seen for the first time is rendered without being stored: with a shared backend (Redis) every read
 * parses a new object, and storing those would only churn the cache.
 */
export function renderOnce(
  renders: ResponseSlot<Rendered>,
  value: object,
  options: unknown,
  render: () => Rendered,
): Rendered {
  return renders.derive(
    value,
    options,
    // Stored renders are sent many times: encode the body once here rather than on every write.
    () => {
      const out = withTag(render());
      return { ...out, bytes: Buffer.from(out.body) };
    },
    () => withTag(render()),
  );
}

/** The strong validator travels with the body, so the conditional hook never hashes a memoised body again. */
function withTag(r: Rendered): Rendered {
  if (r.headers.etag) return r;
  return { ...r, headers: { ...r.headers, etag: entityTagOf(r.body) } };
}
