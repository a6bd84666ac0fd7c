// Signed addresses of the media proxy: `/media/<ref>.<exp>.<sig>`, where ref is the media URL in base64url, exp
// the expiry in Unix seconds, and the HMAC-SHA256 covers ref and expiry under a secret only the service holds (shared between
// instances like the cursor secret). Without a valid signature the proxy fetches nothing: it is never open.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { xMediaUrl } from '../domain/media-refs.ts';

export type MediaCheck =
  { ok: true; url: string; exp: number } | { ok: false; why: 'unsigned' | 'forged' | 'expired' | 'not_x_media' };

export class MediaSigner {
  private key: Buffer = randomBytes(32);

  constructor(
    /** How long a signed address stays valid, at least. */
    private readonly ttlS: number,
  ) {}

  adopt(secret: string): void {
    this.key = createHmac('sha256', secret).update('threadmark media proxy').digest();
  }

  private mac(ref: string, exp: number): string {
    return createHmac('sha256', this.key).update(`${ref}.${exp}`).digest('base64url');
  }

  /**
   * The proxy path of an X media URL; undefined for any other URL. Expiries fall on multiples of the lifetime, so
   * the address of a file stays the same for a while (feeds and pages keep their validators) and is valid for
   * between one and two lifetimes.
   */
  sign(url: string, nowMs = Date.now()): string | undefined {
    if (!xMediaUrl(url)) return undefined;
    const ref = Buffer.from(url, 'utf8').toString('base64url');
    const exp = (Math.floor(nowMs / 1000 / this.ttlS) + 2) * this.ttlS;
    // No `&` or `?`: the address goes into HTML, XML and JSON alike without escaping.
    return `/media/${ref}.${exp}.${this.mac(ref, exp)}`;
  }

  /** Whether an address (`ref.exp.sig`) was issued here and is still valid. */
  check(token: string, nowMs = Date.now()): MediaCheck {
    const [ref = '', exp, sig, ...rest] = token.split('.');
    const url = /^[A-Za-z0-9_-]{1,4000}$/.test(ref) ? Buffer.from(ref, 'base64url').toString('utf8') : '';
    // Only X's media are ever signed: anything else is refused before the signature is even looked at.
    if (!xMediaUrl(url)) return { ok: false, why: 'not_x_media' };
    if (exp === undefined || sig === undefined) return { ok: false, why: 'unsigned' };
    if (rest.length > 0) return { ok: false, why: 'forged' };
    const n = /^[0-9]{1,12}$/.test(exp) ? Number(exp) : NaN;
    const want = Buffer.from(this.mac(ref, n));
    const got = Buffer.from(sig);
    if (!Number.isFinite(n) || got.length !== want.length || !timingSafeEqual(got, want))
      return { ok: false, why: 'forged' };
    if (n * 1000 <= nowMs) return { ok: false, why: 'expired' };
    return { ok: true, url, exp: n };
  }
}
