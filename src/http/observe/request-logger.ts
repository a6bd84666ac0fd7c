// Fastify's childLoggerFactory (a documented server option): each request's logger is a child of the service's root
// logger (service-log.ts; Fastify has none of its own), made when the request first writes a line, not when the
// request arrives. Fastify asks for one per request before any hook runs, and pino's child serialises its bindings
// and copies its prototype chain; a cache hit (http/responses/) writes no line at the default level, so most
// requests never need one. What a request logs is what pino's child would: the same bindings (its request id) and
// options.
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type Parent = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
type Method = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

class RequestLogger implements FastifyBaseLogger {
  readonly #parent: Parent;
  readonly #bindings: Bindings;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: Parent, bindings: Bindings) {
    this.#parent = parent;
    this.#bindings = bindings;
  }

  #made(): FastifyBaseLogger {
    return (this.#child ??= this.#parent.child(this.#bindings));
  }

  /** A line at `level`: the child is made only when the level is enabled (a disabled call writes nothing). */
  #log(level: Method, args: unknown[]): void {
    if (this.#child === undefined && this.#parent.isLevelEnabled?.(level) === false) return;
    const write: (...a: unknown[]) => void = this.#made()[level];
    write.apply(this.#child, args);
  }

  get level(): string {
    return this.#child ? this.#child.level : this.#parent.level;
  }

  set level(level: string) {
    this.#made().level = level;
  }

  isLevelEnabled(level: string): boolean {
    const log = (this.#child ?? this.#parent) as Parent;
    return log.isLevelEnabled ? log.isLevelEnabled(level) : true;
  }

  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }

  error(...args: unknown[]): void {
    this.#log('error', args);
  }

  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }

  info(...args: unknown[]): void {
    this.#log('info', args);
  }

  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }

  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }

  silent(...args: unknown[]): void {
    this.#log('silent', args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#made().child(bindings, options);
  }
}

/**
 * The factory for Fastify's `childLoggerFactory`: children of `root`, whatever Fastify passes as the parent (its
 * null logger). A request logger is made on first use; at once when the route sets its own level or serializers.
 */
export function requestLoggers(
  root: FastifyBaseLogger,
): (parent: unknown, bindings: Bindings, opts: ChildLoggerOptions) => FastifyBaseLogger {
  return (_parent, bindings, opts) => {
    if (opts.level !== undefined || opts.serializers !== undefined) return root.child(bindings, opts);
    return new RequestLogger(root, bindings);
  };
}
