// The one file where the client's types meet the routes' zod schemas (src/contract/reads.ts). The client package's
// build (scripts/client-types.mjs) replaces this file's declarations with the types these aliases resolve to,
// spelled out, so the published declarations import no package.
import type { z } from 'zod';
import type { EXPORT_LINES, ReadContract, ReadName } from '../contract/reads.ts';

export type { ReadName };

/** What a read's query schema accepts. */
export type QueryInput<N extends ReadName> = z.input<ReadContract[N]['query']>;

/** The JSON body of a read (the feeds, which answer RSS, Atom or JSON Feed, are text). */
export type JsonBody<N extends ReadName> = ReadContract[N] extends { json: infer J extends z.ZodType }
  ? z.output<J>
  : string;

/** The kinds of line of an NDJSON export. */
export type ExportLineName = keyof typeof EXPORT_LINES;

/** One line of an NDJSON export. */
export type ExportLine<K extends ExportLineName> = z.output<(typeof EXPORT_LINES)[K]>;
