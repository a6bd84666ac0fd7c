// Cursor-paged reads as async iteration: the items of every page, following `nextCursor` until the service sends
// none (the end of the list, or the page that reached `since_id`).
import { ThreadmarkProtocolError } from './errors.ts';

/** One page: its items, the cursor of the next (absent at the end) and the whole body. */
export interface Page<T, B> {
  items: T[];
  nextCursor: string | undefined;
  body: B;
}

export class Pager<T, B> implements AsyncIterable<T> {
  constructor(
    private readonly fetchPage: (cursor: string | undefined) => Promise<B>,
    private readonly itemsOf: (body: B) => T[],
    private readonly start: string | undefined,
  ) {}

  /** One page: the first (or the one `cursor` names), with the cursor that continues after it. */
  async page(cursor: string | undefined = this.start): Promise<Page<T, B>> {
    const body = await this.fetchPage(cursor);
    const next = (body as { nextCursor?: unknown }).nextCursor;
    return { items: this.itemsOf(body), nextCursor: typeof next === 'string' && next ? next : undefined, body };
  }

  /** Every page in turn. */
  async *pages(): AsyncGenerator<Page<T, B>> {
    const seen = new Set<string>();
    let cursor = this.start;
    for (;;) {
      const page = await this.page(cursor);
      yield page;
      cursor = page.nextCursor;
      if (cursor === undefined) return;
      // A cursor seen before would page forever.
      if (seen.has(cursor))
        throw new ThreadmarkProtocolError('paging_loop', 'the service sent a cursor it sent before');
      seen.add(cursor);
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.pages()) yield* page.items;
  }
}
