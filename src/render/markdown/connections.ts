// Followers / following: one line per account, linked to its page on this service.
import type { ConnectionsRead, RenderContext } from '../../domain/reads.ts';
import { escapeLine, link } from './escape.ts';
import { accountItem, finish, pageLine, serviceProfileUrl } from './list.ts';

export function renderConnectionsMarkdown(read: ConnectionsRead, ctx: RenderContext): string {
  const who = link('@' + read.handle, serviceProfileUrl(ctx, read.handle));
  const parts = [
    read.kind === 'followers'
      ? `# Followers of @${escapeLine(read.handle)}`
      : `# Accounts @${escapeLine(read.handle)} follows`,
  ];
  parts.push(`${pageLine(read, read.items.length, 'account')} · profile: ${who}`);
  parts.push(
    read.items.length > 0 ? read.items.map((a) => accountItem(a, ctx)).join('\n') : 'No accounts on this page.',
  );
  if (ctx.full) parts.push(`Source: ${escapeLine(read.source)}`);
  return finish(parts, read);
}
