// Opaque, provider-tagged cursors. The payload (provider, route, query, feed, upstream cursor, page) is sealed
// with AES-256-GCM, so the upstream cursor is never exposed and any edit, forgery or reuse on another
// route, query or feed is detected. A cluster shares THREADMARK_CURSOR_SECRET, or, when it is unset in distributed
// mode, a random secret agreed through Redis (see app/cursor-secret.ts); otherwise each process draws its own
// and cursors do not survive a restart.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { Problem } from '../problems/problem.ts';

export interface CursorScope {
  /** Route family: profile, followers, following, search. */
  route: string;
  /** Normalized query: lower-cased handle, or the search terms. */
  query: string;
  /** Search feed; empty for the other routes. */
  feed: string;
}

export interface CursorState {
  provider: string;
  upstream: string;
  /** Page number the cursor leads to. */
  page: number;
}

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

export class CursorCodec {
  /** Sealing key first; earlier keys still open cursors issued before a shared secret was adopted. */
  private keys: Buffer[];

  constructor(secret?: string) {
    this.keys = [keyOf(secret ?? randomBytes(32))];
  }

  private get key(): Buffer {
    return this.keys[0]!;
  }

  /** Switches sealing to a secret shared by the cluster, still accepting cursors this process sealed before. */
  adopt(secret: string): void {
    const next = keyOf(secret);
    if (next.equals(this.key)) return;
    this.keys = [next, ...this.keys.filter((k) => !k.equals(next))].slice(0, 3);
  }

  encode(scope: CursorScope, state: CursorState): string {
    const payload: Sealed = { v: 1, s: scopeTag(scope), ...state };
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  decode(scope: CursorScope, token: string): CursorState {
    const raw = /^[A-Za-z0-9_-]+$/.test(token) ? Buffer.from(token, 'base64url') : Buffer.alloc(0);
    // Base64 decoding ignores stray trailing bits; only the exact text this service issued is accepted.
    if (raw.length <= IV_BYTES + TAG_BYTES || raw.toString('base64url') !== token) throw new Problem('invalid_cursor', 'The cursor is not one this service issued.');
    let payload: Sealed | undefined;
    for (const k of this.keys) if ((payload = open(k, raw))) break;
    if (!payload) throw new Problem('invalid_cursor', 'The cursor was edited, forged, or issued by another deployment.');
    if (payload.v !== 1 || payload.s !== scopeTag(scope)) {
      throw new Problem('invalid_cursor', 'The cursor belongs to another route, query or feed; send it only where it was issued.');
    }
    return { provider: payload.provider, upstream: payload.upstream, page: payload.page };
  }
}

function open(key: Buffer, raw: Buffer): Sealed | undefined {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    return JSON.parse(text) as Sealed;
  } catch {
    return undefined;
  }
}
