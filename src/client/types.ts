// Parameter and result types of the client's methods, derived from the schemas the routes declare
// (src/contract/reads.ts, through contract-types.ts): what a read's query schema accepts, what its JSON body schema
// gives. Nothing here names a field of its own.
import type { ExportLine, JsonBody, QueryInput, ReadName } from './contract-types.ts';

type FlagWord = 'true' | '1' | 'yes' | 'false' | '0' | 'no';

/**
 * A query value as a program holds it: a boolean where the route takes a flag, a number where it takes free text
 * (limit, max_posts, min_likes), serialised with String() on the wire.
 */
export type Loose<V> = V extends FlagWord ? V | boolean : V extends string ? (string extends V ? V | number : V) : V;

/**
 * A read's query parameters, without `format`: the client picks the representation it parses (JSON, NDJSON, or
 * the feed's own `type`).
 */
export type ParamsOf<N extends ReadName> = {
  [K in Exclude<keyof QueryInput<N>, 'format'>]?: Loose<QueryInput<N>[K]>;
};

/** The JSON body of a read (the feeds, which answer RSS, Atom or JSON Feed, are text). */
export type ResultOf<N extends ReadName> = JsonBody<N>;

/** One element of the list a paged read answers in `key`. */
export type ItemOf<N extends ReadName, K extends keyof ResultOf<N>> = ResultOf<N>[K] extends readonly (infer T)[]
  ? T
  : never;

/** A post line of an NDJSON export. */
export type ExportPost = ExportLine<'post'>;
/** The last line of an NDJSON export: why it stopped and the cursor that continues it. */
export type ExportEnd = ExportLine<'end'>;

/** Per-call options. */
export interface CallOptions {
  /** Aborts the request, any wait before a retry, and (for iterators) the pages not yet read. */
  signal?: AbortSignal;
}
