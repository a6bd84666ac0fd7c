// RSS 2.0 with the usual extensions: atom:link rel="self", dc:creator (RSS <author> must be an e-mail
// address), Media RSS for every photo and video (RSS itself allows one <enclosure> per item).
import type { FeedDoc, FeedEntry } from '../../domain/feeds.ts';
import { el, empty, rfc822 } from './xml.ts';

function item(e: FeedEntry): string {
  const [first] = e.enclosures;
  const lines = [
    el('title', e.title),
    el('link', e.url),
    el('guid', e.id, { isPermaLink: e.idIsUrl ? 'true' : 'false' }),
    el('pubDate', rfc822(e.published)),
    el('dc:creator', `${e.author.name} (@${e.author.handle})`),
    el('description', e.contentHtml),
    // The platform permalink is where the replies live.
    el('comments', e.platformUrl),
    ...e.categories.map((c) => el('category', c)),
    first ? empty('enclosure', { url: first.url, type: first.mimeType, length: '0' }) : '',
    ...e.enclosures.map((m) => empty('media:content', { url: m.url, type: m.mimeType, medium: m.medium })),
  ];
  return `<item>\n${lines.filter(Boolean).join('\n')}\n</item>`;
}

export function renderRss(doc: FeedDoc): string {
  const ttlMin = Math.max(1, Math.ceil(doc.ttlS / 60));
  const head = [
    el('title', doc.title),
    el('link', doc.homeUrl),
    el('description', doc.description),
    empty('atom:link', { href: doc.selfUrl, rel: 'self', type: 'application/rss+xml' }),
    doc.hubUrl ? empty('atom:link', { href: doc.hubUrl, rel: 'hub' }) : '',
    el('generator', 'threadmark'),
    el('docs', 'https://www.rssboard.org/rss-specification'),
    el('ttl', String(ttlMin)),
    doc.updated ? el('lastBuildDate', rfc822(doc.updated)) : '',
    doc.updated ? el('pubDate', rfc822(doc.updated)) : '',
    // The image's title and link must repeat the channel's.
    doc.imageUrl
      ? `<image>\n${el('url', doc.imageUrl)}\n${el('title', doc.title)}\n${el('link', doc.homeUrl)}\n</image>`
      : '',
  ];
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">\n' +
    `<channel>\n${head.filter(Boolean).join('\n')}\n${doc.entries.map(item).join('\n')}\n</channel>\n</rss>\n`
  );
}
