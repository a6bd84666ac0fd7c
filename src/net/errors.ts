// What can go wrong with one outbound exchange, typed so that each caller says it in its own words (a provider's
// failure, a delivery's error line, a media file skipped) without reading messages.

export type NetFailureKind =
  /** The budget had passed before anything was sent: nobody was asked. */
  | 'not_asked'
  /** No answer (or no whole body) within the attempt's limit or the deadline. */
  | 'timeout'
  /** The connection could not be made or broke (refused, reset, closed before the end of the body). */
  | 'unreachable'
  /** The body is (or says it is) larger than the request accepts. */
  | 'too_large'
  /** A redirect the caller did not allow. */
  | 'redirect_refused'
  /** The host is, or resolves to, an address that is not public, and the request asked for public ones only. */
  | 'not_public';

export class NetError extends Error {
  constructor(
    readonly kind: NetFailureKind,
    message: string,
    readonly opts: {
      cause?: unknown;
      /** The answer's status, when one came (an oversize body). */
      status?: number;
      /** too_large: the length the answer declared, when it declared one above the limit. */
      declared?: number;
      /** too_large: the limit that was passed. */
      limit?: number;
      /** redirect_refused: where the redirect pointed. */
      to?: URL;
      /** timeout: the deadline (not the attempt's own limit) is what ran out. */
      byDeadline?: boolean;
    } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'NetError';
  }
}

/** The useful reason of a transport failure (ECONNREFUSED, ENOTFOUND...), wherever it sits. */
export function transportReason(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string; message?: string } };
  if (typeof e?.code === 'string' && e.code !== 'ABORT_ERR') return e.code;
  if (e?.cause?.code) return e.cause.code;
  if (e?.cause?.message) return e.cause.message;
  return err instanceof Error ? err.message : String(err);
}
