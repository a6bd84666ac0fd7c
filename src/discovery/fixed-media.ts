// Routes that declare no representations answer with one fixed media type. RouteDecl has no field for it, so the
// discovery and oEmbed declarations carry it as an extra member that the generators read back here.
import type { RouteDecl } from '../http/route-decl.ts';

export interface FixedMedia {
  /** The media type of the 200 body, without parameters unless they matter (profile=...). */
  mediaType: string;
  /** JSON Schema of the 200 body, when it is JSON. */
  schema?: Record<string, unknown>;
  /** Further media types the route answers with when a query parameter picks them (feeds' `type`). */
  alternatives?: string[];
}

/** Every media type a fixed-media route can answer with, the default first. */
export function fixedMediaTypes(fixed: FixedMedia): string[] {
  return [fixed.mediaType, ...(fixed.alternatives ?? [])];
}

export type FixedDecl = RouteDecl & { fixed: FixedMedia };

export function fixedMediaOf(decl: RouteDecl): FixedMedia | undefined {
  return (decl as Partial<FixedDecl>).fixed;
}
