// The JSON string X keeps in a unified card's `unified_card` binding, in the shape of a captured website card
// (twscrape tests/mocked-data/card_summary.json): a details component pointing at a browser destination.
import type { SimCard } from '../corpus-types.ts';

export function unifiedCardJson(card: SimCard): string {
  const mediaKey = `3_${card.imageUrl.replace(/\D/g, '').slice(0, 19) || '1'}`;
  return JSON.stringify({
    type: 'image_website',
    component_objects: {
      details_1: {
        type: 'details',
        data: {
          title: { content: card.title, is_rtl: false },
          subtitle: { content: card.domain, is_rtl: false },
          destination: 'browser_1',
        },
      },
      media_1: { type: 'media', data: { id: mediaKey, destination: 'browser_1' } },
    },
    destination_objects: {
      browser_1: { type: 'browser', data: { url_data: { url: card.url, vanity: card.domain } } },
    },
    components: ['media_1', 'details_1'],
    media_entities: {
      [mediaKey]: {
        id_str: mediaKey.slice(2),
        media_url_https: card.imageUrl,
        type: 'photo',
        original_info: { width: card.imageWidth, height: card.imageHeight },
      },
    },
  });
}
