// Content negotiation: an explicit `format` beats Accept; Accept is read with q-values by `negotiator`.
import Negotiator from 'negotiator';
import type { IncomingHttpHeaders } from 'node:http';
import { Problem } from '../../problems/problem.ts';
import type { Representation } from '../../contract/representation.ts';

/** Offer order matters: with equal preference (or * / *) Markdown wins. */
const OFFERS = ['text/markdown', 'application/json', 'text/html'] as const;
const BY_TYPE: Record<(typeof OFFERS)[number], Representation> = {
  'text/markdown': 'markdown',
  'application/json': 'json',
  'text/html': 'html',
};

export function negotiateAccept(headers: IncomingHttpHeaders): Representation {
  const accept = headers.accept;
  if (accept === undefined || accept.trim() === '') return 'markdown';
  const chosen = new Negotiator({ headers: { accept } }).mediaType([...OFFERS]) as (typeof OFFERS)[number] | undefined;
  if (!chosen) {
    throw new Problem('not_acceptable', 'Accept allows none of text/markdown, application/json or text/html.');
  }
  return BY_TYPE[chosen];
}

/** No Accept, or one that admits text/html at any preference. */
export function acceptsHtml(headers: IncomingHttpHeaders): boolean {
  const accept = headers.accept;
  if (accept === undefined || accept.trim() === '') return true;
  return new Negotiator({ headers: { accept } }).mediaTypes(['text/html']).length > 0;
}

/** Validated `format` (already checked by the route schema) or the Accept header. */
export function chooseRepresentation(format: string | undefined, headers: IncomingHttpHeaders): Representation {
  if (format === 'markdown' || format === 'obsidian' || format === 'json') return format;
  return negotiateAccept(headers);
}

/** Problem documents: application/json when the caller asked for JSON, application/problem+json otherwise. */
export function problemMediaType(format: unknown, headers: IncomingHttpHeaders): string {
  if (format === 'json') return 'application/json';
  const accept = headers.accept;
  if (!accept) return 'application/problem+json';
  const best = new Negotiator({ headers: { accept } }).mediaType(['application/problem+json', 'application/json']);
  return best === 'application/json' && /application\/json/i.test(accept)
    ? 'application/json'
    : 'application/problem+json';
}

/**
 * Whether a request names a document (`format=markdown`, or an Accept naming text/markdown or text/html): only
 * then may a missing profile be answered with a recovery document. Without Accept (or with * / *) an error is the
 * problem document every error is.
 */
export function namesDocument(format: unknown, headers: IncomingHttpHeaders): boolean {
  if (format === 'markdown') return true;
  if (format !== undefined) return false;
  const accept = headers.accept;
  if (accept === undefined || !/\btext\/(markdown|html)\b/i.test(accept)) return false;
  const chosen = new Negotiator({ headers: { accept } }).mediaType([...OFFERS]);
  return chosen === 'text/markdown' || chosen === 'text/html';
}
