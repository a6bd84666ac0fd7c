// Parameter and result types of the client's methods, derived from the schemas the routes declare
// (src/contract/reads.ts): z.input of a read's query schema, z.output of its JSON body schema. Nothing here names a
// field of its own.
import type { z } from 'zod';
import type { EXPORT_LINES, ReadContract, ReadName } from '../contract/reads.ts';

type FlagWord = 'true' | '1' | 'yes' | 'false' | '0' | 'no';

/**
 * A query value as a program holds it: a boolean where the route takes a flag, a number where it takes free text
 * (limit, max_posts, min_likes), serialised with String() on the wire.
 */
export type Loose<V> = V extends FlagWord ? V | boolean : V extends string ? (string extends V ? V | number : V) : V;

type QueryInput<N extends ReadName> = z.input<ReadContract[N]['query']>;

/**
 * A read's query parameters, without `format`: the client picks the representation it parses (JSON, NDJSON, or
 * the feed's own `type`).
 */
export type ParamsOf<N extends ReadName> = {
  [K in Exclude<keyof QueryInput<N>, 'format'>]?: Loose<QueryInput<N>[K]>;
};

/** The JSON body of a read (the feeds, which answer RSS, Atom or JSON Feed, are text). */
export type ResultOf<N extends ReadName> = ReadContract[N] extends { json: infer J extends z.ZodType }
  ? z.output<J>
  : string;

/** One element of the list a paged read answers in `key`. */
export type ItemOf<N extends ReadName, K extends keyof ResultOf<N>> = ResultOf<N>[K] extends readonly (infer T)[]
  ? T
  : never;

/** A post line of an NDJSON export. */
export type ExportPost = z.output<(typeof EXPORT_LINES)['post']>;
/** The last line of an NDJSON export: why it stopped and the cursor that continues it. */
export type ExportEnd = z.output<(typeof EXPORT_LINES)['end']>;

/** Per-call options. */
export interface CallOptions {
  /** Aborts the request, any wait before a retry, and (for iterators) the pages not yet read. */
  signal?: AbortSignal;
}
