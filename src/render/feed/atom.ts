// Atom 1.0 (RFC 4287). The entry HTML is sent as escaped text with type="html".
import type { FeedDoc, FeedEntry } from '../../domain/feeds.ts';
import { el, empty, rfc3339 } from './xml.ts';

function entry(e: FeedEntry): string {
  const lines = [
    el('id', e.id),
    el('title', e.title, { type: 'text' }),
    empty('link', { rel: 'alternate', type: 'text/html', href: e.url }),
    empty('link', { rel: 'related', type: 'text/html', href: e.platformUrl }),
    el('published', rfc3339(e.published)),
    el('updated', rfc3339(e.updated)),
    `<author>\n${el('name', `${e.author.name} (@${e.author.handle})`)}\n${el('uri', e.author.url)}\n</author>`,
    el('content', e.contentHtml, { type: 'html' }),
    ...e.categories.map((c) => empty('category', { term: c })),
    ...e.enclosures.map((m) => empty('link', { rel: 'enclosure', type: m.mimeType, href: m.url })),
  ];
  return `<entry>\n${lines.join('\n')}\n</entry>`;
}

export function renderAtom(doc: FeedDoc): string {
  const head = [
    el('id', doc.selfUrl),
    el('title', doc.title, { type: 'text' }),
    doc.description ? el('subtitle', doc.description, { type: 'text' }) : '',
    empty('link', { rel: 'self', type: 'application/atom+xml', href: doc.selfUrl }),
    doc.hubUrl ? empty('link', { rel: 'hub', href: doc.hubUrl }) : '',
    empty('link', { rel: 'alternate', type: 'text/html', href: doc.homeUrl }),
    // An empty feed has no newest entry; the epoch keeps the document (and its ETag) stable.
    el('updated', rfc3339(doc.updated)),
    el('generator', 'threadmark'),
    doc.imageUrl ? el('icon', doc.imageUrl) : '',
    doc.imageUrl ? el('logo', doc.imageUrl) : '',
    ...doc.authors.map((a) => `<author>\n${el('name', `${a.name} (@${a.handle})`)}\n${el('uri', a.url)}\n</author>`),
  ];
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<feed xmlns="http://www.w3.org/2005/Atom">\n${head.filter(Boolean).join('\n')}\n${doc.entries.map(entry).join('\n')}\n</feed>\n`
  );
}
