// Fitting a rendered document into a character budget: the fewest things given way (domain/give-way.ts decides
// the order) such that the document plus its closing line fits. Characters are Unicode code points, as an
// agent's own tokenizer-free count (Python's len, say) would see them.
import type { GiveWay } from '../domain/give-way.ts';
import { safeHref } from './markdown/escape.ts';

export const BUDGET_MIN = 500;
export const BUDGET_MAX = 200_000;

export function charCount(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

export type Fitted<R> =
  | { fits: true; read: R; markdown: string; leftOut: string[] }
  /** Even with everything that may give way left out, the document needs `needed` characters. */
  | { fits: false; needed: number };

/** `*Budget: left out 3 replies and 2 earlier posts.* [Read it all](…)` */
export function closingLine(leftOut: string[], fullUrl: string): string {
  const what = leftOut.length > 1 ? `${leftOut.slice(0, -1).join(', ')} and ${leftOut.at(-1)}` : leftOut[0];
  const href = safeHref(fullUrl);
  return `*Budget: left out ${what}.*${href ? ` [Read it all](${href})` : ''}`;
}

/** Appends the closing line to a document that has no place of its own for it. */
export function appendClosing(body: string, closing: string | undefined): string {
  return closing ? `${body.replace(/\n+$/, '')}\n\n${closing}\n` : body;
}

/** `render` places the closing line (undefined while nothing is left out) where the document wants it. */
export function fitBudget<R>(
  giveWay: GiveWay<R>,
  render: (read: R, closing?: string) => string,
  budget: number,
  fullUrl: string,
): Fitted<R> {
  const attempt = (k: number) => {
    const { read, leftOut } = giveWay.drop(k);
    const markdown = render(read, leftOut.length ? closingLine(leftOut, fullUrl) : undefined);
    return { read, markdown, leftOut, size: charCount(markdown) };
  };
  const whole = attempt(0);
  if (whole.size <= budget) return { fits: true, read: whole.read, markdown: whole.markdown, leftOut: [] };
  let best = attempt(giveWay.units);
  if (best.size > budget) return { fits: false, needed: best.size };
  // Smallest k that fits: `hi` always fits, `lo` never does. Leaving more out never lengthens the document
  // (only the closing line's counts can grow by a digit), and only a fitting attempt is ever returned.
  let lo = 0;
  let hi = giveWay.units;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    const got = attempt(mid);
    if (got.size <= budget) {
      hi = mid;
      best = got;
    } else {
      lo = mid;
    }
  }
  return { fits: true, read: best.read, markdown: best.markdown, leftOut: best.leftOut };
}
