// The `x-client-transaction-id` header X's web app sends on some GraphQL calls (search among them). It is
// derived from three things the web app ships: the `twitter-site-verification` key in the home page, the
// four `loading-x-anim-N` SVG animations in the same page, and byte positions named in the on-demand script.
// The steps (public facts, as described by twscrape's xclid and Nitter's tid): pick an animation row from
// the key, evaluate it (colour fade, rotation and a cubic-bezier timing curve) at a time set by the key, turn
// the state into an "animation key" string, then hash method, path, time and that string, and pack key, time
// and hash bytes under a one-byte XOR mask.
import { createHash, randomInt } from 'node:crypto';
import { digitRuns } from './web-scan.ts';

/** The inputs read from the web bundle once; every id is computed from them. */
export interface TransactionInputs {
  /** The decoded `twitter-site-verification` key. */
  keyBytes: Uint8Array;
  /** The animation key derived from the frames (see animationKey). */
  animationKey: string;
}

/** Seconds are counted from this instant (1 May 2023, 07:00 UTC), as the web app does. */
export const TRANSACTION_EPOCH_S = 1682924400;
const KEYWORD = 'obfiowerehiring';
const TRAILER = 3;
const FRAME_TIME_SPAN = 4096;

/**
 * The numbers of one SVG path `d` attribute, one row per cubic segment: the first nine characters
 * (the `M` move) are skipped, then every run of digits in each `C` segment is a number.
 */
export function frameRows(d: string): number[][] {
  return d.slice(9).split('C').map(digitRuns);
}

/** Maps a byte onto [min, max]: floored for whole-number targets, else rounded to two decimals. */
function scale(byte: number, min: number, max: number, whole: boolean): number {
  const v = (byte * (max - min)) / 255 + min;
  return whole ? Math.floor(v) : Math.round(v * 100) / 100;
}

/** Progress of a CSS cubic-bezier(x1, y1, x2, y2) timing curve at time `t`. */
export function cubicBezier(x1: number, y1: number, x2: number, y2: number, t: number): number {
  const at = (a: number, b: number, m: number) => 3 * a * (1 - m) ** 2 * m + 3 * b * (1 - m) * m ** 2 + m ** 3;
  if (t <= 0) {
    const slope = x1 > 0 ? y1 / x1 : y1 === 0 && x2 > 0 ? y2 / x2 : 0;
    return slope * t;
  }
  if (t >= 1) {
    const slope = x2 < 1 ? (y2 - 1) / (x2 - 1) : x2 === 1 && x1 < 1 ? (y1 - 1) / (x1 - 1) : 0;
    return 1 + slope * (t - 1);
  }
  // Bisection on the x curve for the parameter whose x is t, then the y curve there.
  let lo = 0;
  let hi = 1;
  let m = 0;
  while (lo < hi) {
    m = (lo + hi) / 2;
    const x = at(x1, x2, m);
    if (Math.abs(t - x) < 1e-5) break;
    if (x < t) lo = m;
    else hi = m;
  }
  return at(y1, y2, m);
}

/** A non-negative number in the web app's hex spelling: integer part, then `.` and fraction digits. */
export function hexOf(x: number): string {
  const whole = Math.floor(x);
  let frac = x - whole;
  let out = whole > 0 ? whole.toString(16).toUpperCase() : '';
  if (frac === 0) return out;
  out += '.';
  // A double has at most 13 hex digits of fraction; the loop ends by itself well before.
  while (frac > 0) {
    frac *= 16;
    const digit = Math.floor(frac);
    frac -= digit;
    out += digit.toString(16).toUpperCase();
  }
  return out;
}

/** The animation's state at `t` (0..1) as the web app spells it: colour, rotation matrix, two zeros. */
export function animationState(row: readonly number[], t: number): string {
  const from = [row[0] ?? 0, row[1] ?? 0, row[2] ?? 0];
  const to = [row[3] ?? 0, row[4] ?? 0, row[5] ?? 0];
  const turn = scale(row[6] ?? 0, 60, 360, true);
  const curve = row.slice(7).map((b, i) => scale(b, i % 2 === 1 ? -1 : 0, 1, false));
  const p = cubicBezier(curve[0] ?? 0, curve[1] ?? 0, curve[2] ?? 0, curve[3] ?? 0, t);
  const colour = from.map((f, i) => Math.max(0, f * (1 - p) + to[i]! * p));
  const rad = (turn * p * Math.PI) / 180;
  const matrix = [Math.cos(rad), -Math.sin(rad), Math.sin(rad), Math.cos(rad)];
  const parts = colour.map((c) => Math.round(c).toString(16));
  for (const v of matrix) {
    const h = hexOf(Math.abs(Math.round(v * 100) / 100));
    parts.push(h.startsWith('.') ? `0${h}`.toLowerCase() : h || '0');
  }
  parts.push('0', '0');
  return parts.join('').replace(/[.-]/g, '');
}

/**
 * The animation key from the verification key, the four frames' `d` attributes and the byte positions of
 * the on-demand script (the first picks the row, the others the time).
 */
export function animationKey(keyBytes: Uint8Array, frames: readonly string[], indices: readonly number[]): string {
  if (frames.length < 4) throw new Error(`expected 4 loading animation frames, found ${frames.length}`);
  if (indices.length < 2) throw new Error('the on-demand script named fewer than 2 key byte indices');
  const byte = (i: number) => {
    const b = keyBytes[i];
    if (b === undefined) throw new Error(`key byte index ${i} is past the ${keyBytes.length}-byte key`);
    return b;
  };
  const rows = frameRows(frames[byte(5) % 4]!);
  const row = rows[byte(indices[0]!) % 16];
  if (!row || row.length < 11) throw new Error('the chosen animation row is missing or too short');
  const steps = indices.slice(1).reduce((acc, i) => acc * (byte(i) % 16), 1);
  const t = (Math.round(steps / 10) * 10) / FRAME_TIME_SPAN;
  return animationState(row, t);
}

/**
 * One header value for `method` on `path` (the URL path, no query). `nowMs` and `mask` are parameters so
 * tests can pin them; in use they are the clock and a random byte.
 */
export function transactionId(
  inputs: TransactionInputs,
  method: string,
  path: string,
  nowMs: number = Date.now(),
  mask: number = randomInt(256),
): string {
  const time = Math.floor(nowMs / 1000 - TRANSACTION_EPOCH_S);
  const timeBytes = [time & 0xff, (time >>> 8) & 0xff, (time >>> 16) & 0xff, (time >>> 24) & 0xff];
  const hash = createHash('sha256').update(`${method}!${path}!${time}${KEYWORD}${inputs.animationKey}`).digest();
  const body = [...inputs.keyBytes, ...timeBytes, ...hash.subarray(0, 16), TRAILER];
  const out = Buffer.from([mask, ...body.map((b) => b ^ mask)]);
  return out.toString('base64').replace(/=+$/, '');
}

/** What a header value carries, for checks (the simulator's verification, tests): key, time, trailer. */
export function decodeTransactionId(
  value: string,
): { keyBytes: Uint8Array; time: number; hash: Uint8Array; trailer: number } | undefined {
  if (!/^[A-Za-z0-9+/]+$/.test(value)) return undefined;
  const raw = Buffer.from(value, 'base64');
  if (raw.length < 1 + 4 + 16 + 1 + 1) return undefined;
  const mask = raw[0]!;
  const body = raw.subarray(1).map((b) => b ^ mask);
  const keyLen = body.length - 4 - 16 - 1;
  const t = body.subarray(keyLen, keyLen + 4);
  return {
    keyBytes: body.subarray(0, keyLen),
    time: t[0]! | (t[1]! << 8) | (t[2]! << 16) | (t[3]! << 24),
    hash: body.subarray(keyLen + 4, keyLen + 20),
    trailer: body[body.length - 1]!,
  };
}
