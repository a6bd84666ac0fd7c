// The X Article in the corpus: a Draft.js-like body covering every block kind threadmark renders.
import type { SimArticle, SimArticleBlock, SimBlockLink } from './corpus-types.ts';

const at = (text: string, part: string): [number, number] => {
  const i = text.indexOf(part);
  if (i < 0) throw new Error(`article fixture: "${part}" not in "${text}"`);
  return [i, i + part.length];
};
const link = (kind: SimBlockLink['kind'], text: string, part: string, shown = part): SimBlockLink => {
  const [fromIndex, toIndex] = at(text, part);
  return { kind, fromIndex, toIndex, text: shown };
};
const style = (text: string, part: string, s: 'Bold' | 'Italic') => {
  const [offset, end] = at(text, part);
  return { offset, length: end - offset, style: s };
};

function block(
  key: string,
  type: SimArticleBlock['type'],
  text: string,
  extra: Partial<SimArticleBlock> = {},
): SimArticleBlock {
  return { key, type, text, styles: [], links: [], ...extra };
}

export function buildArticle(id: string, createdAt: number): SimArticle {
  const intro = 'Caching is easy until the data changes. This guide is opinionated and practical.';
  const why =
    'Phil Karlton joked about it, and the joke is collected at https://martinfowler.com/bliki/TwoHardThings.html for good reason.';
  const outro = 'Questions? Ask @alice_dev and tag #caching so others can find the answers.';
  // Right-to-left text whose bold run ends in punctuation right before a letter, as Persian posts write it.
  const rtl = 'برای Linux/macOS/WSL2:این دستور را اجرا کنید.';
  const imageId = '1900000000000777002';
  return {
    id,
    title: 'A field guide to cache invalidation',
    previewText: 'Caching is easy until the data changes. This guide is opinionated and practical.',
    createdAt,
    modifiedAt: createdAt + 3_600_000,
    cover: {
      mediaId: '1900000000000777001',
      url: 'https://pbs.twimg.com/media/ArtCover01.jpg',
      width: 1500,
      height: 600,
    },
    images: [{ mediaId: imageId, url: 'https://pbs.twimg.com/media/ArtDiagram02.jpg', width: 1200, height: 800 }],
    entities: [
      {
        type: 'MARKDOWN',
        // The ESC sequence is what a terminal would obey (red text): the CLI must not pass it to a TTY.
        markdown:
          "```ts\nconst hit = cache.get(key) ?? (await load(key));\ncache.set(key, hit, { ttl: 300 });\nconsole.log('\\x1b[31mstale\\x1b[0m' === '\x1b[31mstale\x1b[0m');\n```",
      },
      { type: 'MEDIA', mediaId: imageId },
    ],
    blocks: [
      block('a1b2c', 'unstyled', intro, {
        styles: [style(intro, 'easy', 'Bold'), style(intro, 'opinionated', 'Italic')],
      }),
      block('d3e4f', 'header-one', 'Why invalidation is hard'),
      block('g5h6i', 'unstyled', why, {
        links: [link('urls', why, 'https://martinfowler.com/bliki/TwoHardThings.html')],
        styles: [style(why, 'good reason', 'Bold')],
      }),
      block('j7k8l', 'header-two', 'Three strategies'),
      block('m9n0o', 'unordered-list-item', 'Expire on a timer (TTL)'),
      block('p1q2r', 'unordered-list-item', 'Purge on write'),
      block('s3t4u', 'unordered-list-item', 'Version the keys'),
      block('v5w6x', 'header-three', 'Rolling it out'),
      block('y7z8a', 'ordered-list-item', 'Measure the hit rate'),
      block('b9c0d', 'ordered-list-item', 'Add jitter to every TTL'),
      block('e1f2g', 'ordered-list-item', 'Coalesce concurrent misses'),
      block('h3i4j', 'blockquote', 'There are only two hard things in computer science.'),
      block('k5l6m', 'atomic', ' ', { entity: 0 }),
      block('n7o8p', 'atomic', ' ', { entity: 1 }),
      block('q9r0s', 'unstyled', outro, {
        links: [link('mentions', outro, '@alice_dev', 'alice_dev'), link('hashtags', outro, '#caching', 'caching')],
        styles: [style(outro, 'Questions?', 'Italic')],
      }),
      block('t1u2v', 'unstyled', rtl, { styles: [style(rtl, 'برای Linux/macOS/WSL2:', 'Bold')] }),
    ],
  };
}
