// Reading an answer's body under a size cap, counted as it streams: whole as text, or passed on as a stream.
import type { IncomingMessage } from 'node:http';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { NetError } from './errors.ts';

function declaredTooLarge(res: IncomingMessage, status: number, maxBytes: number): NetError | undefined {
  const declared = Number(res.headers['content-length'] ?? NaN);
  if (!Number.isFinite(declared) || declared <= maxBytes) return undefined;
  return new NetError('too_large', `the answer declares ${declared} bytes, above the ${maxBytes} byte limit`, {
    status,
    declared,
    limit: maxBytes,
  });
}

function exceeded(status: number, maxBytes: number): NetError {
  return new NetError('too_large', `the answer exceeded the ${maxBytes} byte limit`, { status, limit: maxBytes });
}

/** An answer whose body is to be read: the response, its (decoded) body, its status, and how much is taken. */
export interface BodySource {
  res: IncomingMessage;
  body: Readable;
  status: number;
  maxBytes: number;
  /** Past `maxBytes`, keep what came before and stop reading instead of failing. */
  truncate?: boolean;
}

/**
 * Collects the body chunk by chunk into `take`, failing past `maxBytes`. Plain stream events rather than an async
 * iterator: the iterator costs a promise and a microtask hop per chunk and a stream-finished watcher per body, on
 * every upstream read.
 */
function collect<T>(src: BodySource, take: (chunk: Buffer) => void, finish: () => T): Promise<T> {
  const { res, body, status, maxBytes, truncate = false } = src;
  const early = truncate ? undefined : declaredTooLarge(res, status, maxBytes);
  if (early) {
    res.destroy();
    return Promise.reject(early);
  }
  return new Promise<T>((resolve, reject) => {
    let size = 0;
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      // Leaving early (the cap, an abort) must not leave the socket half-read in the pool.
      if (!res.complete) res.destroy();
      if (body !== res) body.destroy();
      reject(err);
    };
    body.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.byteLength;
      if (size > maxBytes && truncate) {
        take(chunk.subarray(0, chunk.byteLength - (size - maxBytes)));
        settled = true;
        res.destroy();
        if (body !== res) body.destroy();
        return resolve(finish());
      }
      if (size > maxBytes) return fail(exceeded(status, maxBytes));
      take(chunk);
    });
    body.once('end', () => {
      if (!res.complete) return fail(new Error('the upstream closed the connection before the end of the body'));
      settled = true;
      resolve(finish());
    });
    body.on('error', fail);
    // Closed with neither an end nor an error: what the stream iterator reports as a premature close.
    body.once('close', () => fail(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' })));
  });
}

/**
 * The body as UTF-8 text, decoded chunk by chunk as it arrives: decoding a body of several MiB in one go at its end
 * held the event loop long enough to delay every other request; the pieces are joined lazily (a rope) and
 * flattened when first read.
 */
export function readText(src: BodySource): Promise<string> {
  const text = new StringDecoder('utf8');
  let got = '';
  return collect(
    src,
    (chunk) => (got += text.write(chunk)),
    () => got + text.end(),
  );
}

/**
 * The body passed on as a stream that fails with `too_large` past `maxBytes` and with `timeout` when `idleMs` pass
 * without a chunk going through (a stalled upstream, or a reader that stopped reading: either holds the connection).
 * It holds at most its own buffers: a reader that reads slowly slows the upstream down (backpressure).
 */
export function capped(
  res: IncomingMessage,
  body: Readable,
  status: number,
  maxBytes: number,
  idleMs: number,
): Readable {
  const early = declaredTooLarge(res, status, maxBytes);
  if (early) {
    res.destroy();
    throw early;
  }
  let size = 0;
  const timer = setTimeout(() => out.destroy(new NetError('timeout', `no progress within ${idleMs} ms`)), idleMs);
  timer.unref();
  const out = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      size += chunk.byteLength;
      if (size > maxBytes) return done(exceeded(status, maxBytes));
      timer.refresh();
      done(null, chunk);
    },
    flush(done: TransformCallback) {
      done(res.complete ? null : new Error('the upstream closed the connection before the end of the body'));
    },
    destroy(err: Error | null, done: (error: Error | null) => void) {
      clearTimeout(timer);
      if (!res.complete) res.destroy();
      if (body !== res) body.destroy();
      done(err);
    },
  });
  body.on('error', (err) => out.destroy(err));
  body.once('close', () => {
    if (!res.complete && !out.destroyed)
      out.destroy(new Error('the upstream closed the connection before the end of the body'));
  });
  out.once('end', () => clearTimeout(timer));
  return body.pipe(out);
}
