// The cursor sealer of the domain's port (domain/cursors.ts), with AES-256-GCM. The payload (provider, route,
// query, feed, upstream cursor, page) is sealed, so the upstream cursor is never exposed and any edit, forgery or
// reuse on another route, query or feed is detected. A cluster shares THREADMARK_CURSOR_SECRET, or, when it is unset,
// a random secret agreed through the shared store (Redis, or a file beside the key store in embedded mode; see
// secrets/cursor-secret.ts), so cursors survive a restart.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import type { CursorScope, CursorSealer, CursorState, OpenedCursor } from '../domain/cursors.ts';

interface Sealed extends CursorState {
  v: 1;
  s: string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

function scopeTag(scope: CursorScope): string {
  return createHash('sha256').update(`${scope.route}\n${scope.query}\n${scope.feed}`).digest('base64url').slice(0, 16);
}

function keyOf(secret: string | Buffer): Buffer {
  return createHash('sha256').update(secret).digest();
}

function ivKeyOf(key: Buffer): Buffer {
  return createHash('sha256').update('threadmark cursor nonce\n').update(key).digest();
}

export class AesGcmCursorSealer implements CursorSealer {
  /** Sealing key first; earlier keys still open cursors issued before a shared secret was adopted. */
  private keys: Buffer[];

  /** Key of the synthetic nonce, derived from the sealing key so that no key serves two primitives. */
  private ivKey: Buffer;

  constructor(secret?: string) {
    this.keys = [keyOf(secret ?? randomBytes(32))];
    this.ivKey = ivKeyOf(this.key);
  }

  private get key(): Buffer {
    return this.keys[0]!;
  }

  /** Switches sealing to a secret shared by the cluster, still accepting cursors this process sealed before. */
  adopt(secret: string): void {
    const next = keyOf(secret);
    if (next.equals(this.key)) return;
    this.keys = [next, ...this.keys.filter((k) => !k.equals(next))].slice(0, 3);
    this.ivKey = ivKeyOf(next);
  }

  seal(scope: CursorScope, state: CursorState): string {
    const text = JSON.stringify({ v: 1, s: scopeTag(scope), ...state } satisfies Sealed);
    // The nonce is a keyed hash of the payload (a synthetic IV), not random: the same position always seals to
    // the same cursor, so a cached page renders to the same bytes and keeps its ETag from one hit to the next.
    // Distinct payloads still get distinct nonces; equal cursors only reveal that they lead to the same place.
    const iv = createHmac('sha256', this.ivKey).update(text).digest().subarray(0, IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  open(scope: CursorScope, token: string): OpenedCursor {
    const raw = /^[A-Za-z0-9_-]+$/.test(token) ? Buffer.from(token, 'base64url') : Buffer.alloc(0);
    // Base64 decoding ignores stray trailing bits; only the exact text this service issued is accepted.
    if (raw.length <= IV_BYTES + TAG_BYTES || raw.toString('base64url') !== token)
      return { ok: false, why: 'not_issued' };
    let payload: Sealed | undefined;
    for (const k of this.keys) if ((payload = decrypt(k, raw))) break;
    if (!payload) return { ok: false, why: 'forged' };
    if (payload.v !== 1 || payload.s !== scopeTag(scope)) return { ok: false, why: 'elsewhere' };
    return {
      ok: true,
      state: {
        provider: payload.provider,
        upstream: payload.upstream,
        page: payload.page,
        ...(payload.skip ? { skip: payload.skip } : {}),
        ...(payload.last ? { last: payload.last } : {}),
      },
    };
  }
}

function decrypt(key: Buffer, raw: Buffer): Sealed | undefined {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
    return JSON.parse(text) as Sealed;
  } catch {
    return undefined;
  }
}
