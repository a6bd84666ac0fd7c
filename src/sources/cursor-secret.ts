// A cluster without THREADMARK_CURSOR_SECRET still needs one sealing key, or a cursor issued by one instance
// is refused by the next: the first instance to reach Redis stores a random secret and every other adopts it.
import { randomBytes } from 'node:crypto';
import type { CursorCodec } from '../domain/paging.ts';
import type { Stores } from '../stores/index.ts';

const SECRET_NAME = 'cursor-secret';
const RETRY_MS = 2000;

/**
 * Resolves after the first attempt, so an instance that starts with Redis up serves shared cursors from its first
 * request; while Redis is unreachable it keeps its own secret and retries in the background. Returns a stop function.
 */
export async function shareCursorSecret(stores: Stores, codec: CursorCodec): Promise<() => void> {
  if (stores.mode !== 'distributed') return () => {};
  const candidate = randomBytes(32).toString('base64url');
  const attempt = async () => {
    const secret = await stores.sharedSecret(SECRET_NAME, candidate);
    if (secret) codec.adopt(secret);
    return secret !== undefined;
  };
  if (await attempt()) return () => {};
  let timer: NodeJS.Timeout | undefined;
  const again = () => {
    timer = setTimeout(() => {
      void attempt().then((ok) => {
        if (!ok && timer) again();
      });
    }, RETRY_MS);
    timer.unref();
  };
  again();
  return () => {
    clearTimeout(timer);
    timer = undefined;
  };
}
