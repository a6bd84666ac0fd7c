// Search results: posts as post blocks, accounts as list items, in the order the feed gave them.
import type { RenderContext, SearchRead } from '../../domain/reads.ts';
import { escapeLine } from './escape.ts';
import { accountItem, finish, listPostBlock, pageLine, windowLabel } from './list.ts';

export function renderSearchMarkdown(read: SearchRead, ctx: RenderContext): string {
  const parts = [
    `# Search: “${escapeLine(read.q)}” · ${read.feed}${windowLabel(read.window)}`,
    pageLine(read, read.items.length, 'result'),
  ];
  if (read.items.length === 0) parts.push('No results on this page.');
  let accounts: string[] = [];
  const flush = (): void => {
    if (accounts.length > 0) parts.push(accounts.join('\n'));
    accounts = [];
  };
  for (const item of read.items) {
    if (item.kind === 'user') {
      accounts.push(accountItem(item.user, ctx));
    } else {
      flush();
      parts.push(listPostBlock(item.post, ctx, 2, true));
    }
  }
  flush();
  if (ctx.full) parts.push(`Source: ${escapeLine(read.source)}`);
  return finish(parts, read);
}
