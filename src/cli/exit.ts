// Exit codes of the `threadmark` command and the one-line problem report scripts can rely on.

export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  notFound: 3,
  rateLimited: 4,
  upstream: 5,
} as const;

/** A failure the command reports as `threadmark: <code>: <detail>` before exiting with `exitCode`. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    readonly detail: string,
    readonly exitCode: number,
  ) {
    super(`${code}: ${detail}`);
    this.name = 'CliError';
  }
}

/** Any 4xx other than 404/429 is the caller's mistake (bad handle, bad flag value, bad key): usage. */
export function exitCodeForStatus(status: number): number {
  if (status === 404) return EXIT.notFound;
  if (status === 429) return EXIT.rateLimited;
  if (status === 502 || status === 503 || status === 504) return EXIT.upstream;
  if (status >= 400 && status < 500) return EXIT.usage;
  return EXIT.failure;
}

export function usageError(detail: string): CliError {
  return new CliError('usage', detail, EXIT.usage);
}

/** Detail text arrives from the network: keep the report on one line of printable text. */
export function problemLine(code: string, detail: string): string {
  const flat = `${code}: ${detail}`
    // eslint-disable-next-line no-control-regex -- control characters are what this strips
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return `threadmark: ${flat}\n`;
}
