// A media body written to a file as it arrives, under a temporary name, hashed on the way: what the media store
// and the zip export keep a file by (its content hash), without holding the file in memory.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sniff } from './sniff.ts';

export interface Spooled {
  /** Where the bytes are, until the caller renames or deletes it. */
  path: string;
  /** `<first 32 hex digits of the SHA-256>.<extension its first bytes show>`. */
  name: string;
  size: number;
}

let seq = 0;

/** Writes `body` to a new file in `dir`; a failure removes the partial file and rejects with the body's error. */
export async function spool(body: Readable, dir: string, onBytes?: (size: number) => void): Promise<Spooled> {
  const path = join(dir, `.partial-${process.pid}-${++seq}`);
  const hash = createHash('sha256');
  let head = Buffer.alloc(0);
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.byteLength;
      try {
        onBytes?.(size);
      } catch (e) {
        return done(e as Error);
      }
      if (head.length < 16) head = Buffer.concat([head, chunk.subarray(0, 16)]);
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(body, tap, createWriteStream(path, { flags: 'wx' }));
  } catch (e) {
    await unlink(path).catch(() => undefined);
    throw e;
  }
  return { path, name: `${hash.digest('hex').slice(0, 32)}.${sniff(head).ext}`, size };
}
