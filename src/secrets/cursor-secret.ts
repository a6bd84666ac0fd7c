// Without THREADMARK_CURSOR_SECRET the service still needs one sealing key that outlives a process, or a cursor
// issued by one instance (or before a restart) is refused by the next: the first to store a random secret in the
// shared store (Redis, or beside the key store in embedded mode) wins, and every other adopts it.
import { randomBytes } from 'node:crypto';

/** Where instances agree on a secret: the first candidate stored wins (stores/index.ts `sharedSecret`). */
export interface SecretStore {
  sharedSecret(name: string, candidate: string): Promise<string | undefined>;
}

/** What takes a shared secret: the cursor sealer, the media URL signer. */
export interface SecretHolder {
  adopt(secret: string): void;
}

const SECRET_NAME = 'cursor-secret';
const RETRY_MS = 2000;

/**
 * Resolves after the first attempt, so an instance that starts with its store up serves shared cursors from its first
 * request; while Redis is unreachable it keeps its own secret and retries in the background. Returns a stop function.
 */
export function shareCursorSecret(stores: SecretStore, codec: SecretHolder): Promise<() => void> {
  return shareSecret(stores, SECRET_NAME, codec);
}

/** The secret `name` shared as the cursor secret is (see above), handed to `codec`. Returns a stop function. */
export async function shareSecret(stores: SecretStore, name: string, codec: SecretHolder): Promise<() => void> {
  const candidate = randomBytes(32).toString('base64url');
  const attempt = async () => {
    const secret = await stores.sharedSecret(name, candidate);
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
