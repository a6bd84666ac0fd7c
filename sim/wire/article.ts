// An X Article body as X stores it (Draft.js blocks and entity map, media entities), the part FxTwitter
// passes on as `content` and X's GraphQL serves as `content_state`.
import type { SimArticle, SimArticleImage } from '../corpus-types.ts';

type Json = Record<string, unknown>;

export function draftArticle(a: SimArticle): { cover_media: Json; content_state: Json; media_entities: Json[] } {
  const image = (img: SimArticleImage) => ({
    id: Buffer.from(`ApiMedia:${img.mediaId}`).toString('base64'),
    media_key: `3_${img.mediaId}`,
    media_id: img.mediaId,
    media_info: {
      __typename: 'ApiImage',
      original_img_height: img.height,
      original_img_width: img.width,
      original_img_url: img.url,
      color_info: { palette: [{ percentage: 81.2, rgb: { red: 20, green: 24, blue: 33 } }] },
    },
  });
  return {
    cover_media: image(a.cover),
    content_state: {
      blocks: a.blocks.map((b) => {
        const data: Record<string, { fromIndex: number; toIndex: number; text: string }[]> = {};
        for (const l of b.links)
          (data[l.kind] ??= []).push({ fromIndex: l.fromIndex, toIndex: l.toIndex, text: l.text });
        return {
          key: b.key,
          data,
          entityRanges: b.entity === undefined ? [] : [{ key: b.entity, length: b.text.length, offset: 0 }],
          inlineStyleRanges: b.styles.map((s) => ({ length: s.length, offset: s.offset, style: s.style })),
          text: b.text,
          type: b.type,
        };
      }),
      entityMap: a.entities.map((e, i) => {
        const entityKey = `${a.id}-${i}`;
        if (e.type === 'MARKDOWN')
          return {
            key: String(i),
            value: { type: 'MARKDOWN', mutability: 'Mutable', data: { entityKey, markdown: e.markdown } },
          };
        if (e.type === 'MEDIA') {
          return {
            key: String(i),
            value: {
              type: 'MEDIA',
              mutability: 'Immutable',
              data: {
                entityKey,
                mediaItems: [{ localMediaId: `${i}`, mediaCategory: 'DraftTweetImage', mediaId: e.mediaId }],
              },
            },
          };
        }
        return { key: String(i), value: { type: 'TWEET', mutability: 'Immutable', data: { tweetId: e.tweetId } } };
      }),
    },
    media_entities: a.images.map(image),
  };
}
