// Routes that declare no representations answer with one fixed media type (RouteDecl.fixed).
import type { FixedMedia } from '../contract/route-decl.ts';

export type { FixedMedia };

/** Every media type a fixed-media route can answer with, the default first. */
export function fixedMediaTypes(fixed: FixedMedia): string[] {
  return [fixed.mediaType, ...(fixed.alternatives ?? [])];
}
