// Paging as every provider does it over its upstream: when an upstream page ends the list, and how a
// conversation's reply cursor is followed. Written once so FxTwitter and X cannot drift apart.
import { continuesAfter } from '../../domain/paging.ts';
import type { Page } from '../../domain/models.ts';

/**
 * An upstream page with its cursor kept only while the list goes on: the domain's rule (a missing cursor, or the
 * one just sent, ends it), plus an empty page (upstreams keep handing out a cursor on the last page) and the
 * upstream's own end marker when it has one.
 */
export function upstreamPage<T>(
  items: T[],
  next: string | null | undefined,
  sent: string | undefined,
  isEndMarker?: (cursor: string) => boolean,
): Page<T> {
  return continuesAfter(next, sent) && items.length > 0 && !isEndMarker?.(next)
    ? { items, nextCursor: next }
    : { items };
}

export interface ReplyBudget {
  /** Pages read at most, the first one included: each is an upstream call. */
  pages: number;
  /** Items after which no further page is read. */
  items?: number;
}

/**
 * "Every reply available": follows a conversation's reply cursor from its first page while the pages go on,
 * within `budget`. A page that fails ends the walk with what was read so far and a note saying so (the replies
 * read are still worth serving); only the caller's own abort fails the read.
 */
export async function followReplyCursor<T>(
  provider: string,
  first: Page<T>,
  budget: ReplyBudget,
  signal: AbortSignal | undefined,
  nextPage: (cursor: string) => Promise<Page<T>>,
): Promise<{ items: T[]; notes: string[] }> {
  const items = [...first.items];
  const notes: string[] = [];
  let cursor = first.nextCursor;
  for (let pages = 1; cursor; pages++) {
    if (pages >= budget.pages || (budget.items !== undefined && items.length >= budget.items)) {
      notes.push(`replies cut at ${items.length} after ${pages} pages (more exist upstream)`);
      break;
    }
    try {
      const page = await nextPage(cursor);
      items.push(...page.items);
      cursor = page.nextCursor;
    } catch (err) {
      if (signal?.aborted) throw err;
      notes.push(`replies incomplete: page ${pages + 1} from ${provider} failed`);
      break;
    }
  }
  return { items, notes };
}

/** The first item of each key, in order: reply pages overlap when the ranking shifts between reads. */
export function uniqueBy<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    return !seen.has(k) && !!seen.add(k);
  });
}
