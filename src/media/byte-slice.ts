// One byte range of a stream, cut as it passes: the bytes before it are read and dropped, and the stream is let go
// once the range is out, so a range costs no more memory than the whole file streamed.
import { Readable } from 'node:stream';

/** Bytes `start` to `end` (inclusive) of `src`. Destroying the slice destroys `src`. */
export function byteSlice(src: Readable, start: number, end: number): Readable {
  let pos = 0;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    out.push(null);
  };
  const out = new Readable({
    read() {
      src.resume();
    },
    destroy(err, callback) {
      src.destroy();
      callback(err);
    },
  });
  src.on('data', (chunk: Buffer) => {
    if (done) return;
    const from = Math.max(0, start - pos);
    const to = Math.min(chunk.length, end + 1 - pos);
    pos += chunk.length;
    if (to > from && !out.push(chunk.subarray(from, to))) src.pause();
    if (pos > end) {
      finish();
      src.destroy();
    }
  });
  src.once('end', finish);
  src.once('error', (e) => out.destroy(e));
  return out;
}
