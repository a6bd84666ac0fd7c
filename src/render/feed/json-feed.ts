// JSON Feed 1.1 (https://jsonfeed.org/version/1.1). JSON.stringify does the escaping.
import type { FeedDoc, FeedEntry, FeedPerson } from '../../domain/feeds.ts';
import { rfc3339 } from './xml.ts';

function person(p: FeedPerson): Record<string, string> {
  return {
    name: `${p.name} (@${p.handle})`,
    ...(p.url ? { url: p.url } : {}),
    ...(p.avatarUrl ? { avatar: p.avatarUrl } : {}),
  };
}

function item(e: FeedEntry): Record<string, unknown> {
  const photo = e.enclosures.find((m) => m.medium === 'image');
  return {
    id: e.id,
    url: e.url,
    external_url: e.platformUrl,
    title: e.title,
    content_html: e.contentHtml,
    date_published: rfc3339(e.published),
    date_modified: rfc3339(e.updated),
    authors: [person(e.author)],
    ...(e.categories.length ? { tags: e.categories } : {}),
    ...(photo ? { image: photo.url } : {}),
    ...(e.enclosures.length ? { attachments: e.enclosures.map((m) => ({ url: m.url, mime_type: m.mimeType })) } : {}),
  };
}

export function renderJsonFeed(doc: FeedDoc): string {
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: doc.title,
    home_page_url: doc.homeUrl,
    feed_url: doc.selfUrl,
    ...(doc.hubUrl ? { hubs: [{ type: 'WebSub', url: doc.hubUrl }] } : {}),
    ...(doc.description ? { description: doc.description } : {}),
    ...(doc.imageUrl ? { icon: doc.imageUrl } : {}),
    ...(doc.authors.length ? { authors: doc.authors.map(person) } : {}),
    // Extension members start with an underscore (JSON Feed 1.1, "Extensions"): how long the data stays cached.
    _threadmark: { ttl_seconds: doc.ttlS },
    items: doc.entries.map(item),
  });
}
