// Replies as nested bullets: one item per reply, text kept (hard breaks inside the item), children indented.
import type { ReplyNode } from '../../domain/models.ts';
import { byline } from './author.ts';
import type { Dialect } from './dialect.ts';
import { escapeLine } from './escape.ts';
import { formatTime } from './format.ts';
import { metaLine, permalinkOf, replyAttachments } from './post.ts';
import { segmentLines, segmentsOf } from './segments.ts';
import { translationLines } from './translation.ts';

function pushReply(node: ReplyNode, depth: number, full: boolean, d: Dialect, out: string[]): void {
  const p = node.post;
  const ind = '  '.repeat(depth);
  const cont = ind + '  ';
  // Paragraph breaks become hard breaks so a reply stays one tight list item.
  const lines = segmentLines(segmentsOf(p), d, false).filter((l) => l !== '');
  if (p.translation) lines.push(...translationLines(p.translation, d));
  const head = `${ind}- ${byline(p.author, d)} · ${escapeLine(formatTime(p.createdAt))}`;
  const tail = `${replyAttachments(p, d)} · [link](${permalinkOf(p)})`;
  if (lines.length === 0) {
    out.push(head + tail);
  } else {
    lines[0] = `${head} — ${lines[0]}`;
    lines[lines.length - 1] += tail;
    out.push(lines.map((l, i) => (i === 0 ? l : cont + l)).join('\\\n'));
  }
  if (full) out.push(cont + metaLine(p, d));
  for (const c of node.children) pushReply(c, depth + 1, full, d, out);
}

/** The replies tree as Markdown list lines (no heading). */
export function renderReplyList(nodes: ReplyNode[], full: boolean, d: Dialect): string {
  const out: string[] = [];
  for (const n of nodes) pushReply(n, 0, full, d, out);
  return out.join('\n');
}
