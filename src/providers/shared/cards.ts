import type { Card } from '../../domain/models.ts';
import { encodePart } from '../../domain/links.ts';
import { compact } from './compact.ts';

// Link cards as X describes them, in GraphQL (`binding_values` as a key/value list) and syndication (as an
// object): summary, summary_large_image, player, broadcast, audiospace, and "unified cards" (app and website
// cards), whose `card_url` is only the placeholder https://twitter.com and whose real destination, title and
// domain are in the JSON string held by the `unified_card` binding.

export interface CardBinding {
  string_value?: string;
  boolean_value?: boolean;
  image_value?: { url?: string; width?: number; height?: number; alt?: string };
}

export type Bindings = (key: string) => CardBinding | undefined;

/** Largest first, so the card shows the original image where X offers one. */
const IMAGE_KEYS = [
  'photo_image_full_size_original',
  'summary_photo_image_original',
  'thumbnail_image_original',
  'player_image_original',
  'broadcast_thumbnail_original',
  'photo_image_full_size_large',
  'summary_photo_image_large',
  'thumbnail_image_large',
  'player_image_large',
  'broadcast_thumbnail_large',
  'thumbnail_image',
  'player_image',
];

/**
 * The card of a post. `name` is X's card name ("summary", "745291183405076480:broadcast", "unified_card"...),
 * `cardUrl` its `url` member, `expand` turns the post's t.co links into their destination.
 */
export function parseLinkCard(
  name: string | undefined,
  cardUrl: string | undefined,
  b: Bindings,
  expand: (short: string) => string | undefined,
): Card | undefined {
  const unified = b('unified_card')?.string_value;
  if (unified !== undefined) return parseUnifiedCard(unified);
  const kind = name?.split(':').pop();
  const short = b('card_url')?.string_value ?? cardUrl;
  const url =
    (kind === 'broadcast' ? b('broadcast_url')?.string_value : undefined) ?? (short && expand(short)) ?? short;
  if (!url || url.startsWith('card://') || isPlaceholder(url)) return undefined;
  const str = (k: string) => b(k)?.string_value || undefined;
  return compact({
    url,
    title: str('title') ?? (kind === 'broadcast' ? str('broadcast_title') : undefined),
    domain: str('vanity_url') ?? str('domain'),
    description: str('description'),
    imageUrl: IMAGE_KEYS.map((k) => b(k)?.image_value?.url).find(Boolean),
  });
}

/** X's own root as a card URL stands for "see the card's data", not a destination. */
function isPlaceholder(url: string): boolean {
  return /^https?:\/\/(?:www\.)?(?:twitter|x)\.com\/?$/i.test(url);
}

interface UnifiedCard {
  type?: string;
  components?: string[];
  component_objects?: Record<string, { type?: string; data?: UnifiedComponentData }>;
  destination_objects?: Record<string, { type?: string; data?: UnifiedDestinationData }>;
  app_store_data?: Record<string, UnifiedApp[]>;
  media_entities?: Record<string, { media_url_https?: string }>;
}

interface UnifiedComponentData {
  title?: { content?: string };
  subtitle?: { content?: string };
  destination?: string;
  id?: string;
  media_list?: { id?: string }[];
  buttons?: { destination?: string }[];
}

interface UnifiedDestinationData {
  url_data?: { url?: string; vanity?: string };
  app_id?: string;
  media_id?: string;
}

interface UnifiedApp {
  type?: string;
  id?: string;
  title?: { content?: string };
}

/** An app or website card from the `unified_card` JSON; undefined when it names no destination. */
export function parseUnifiedCard(json: string): Card | undefined {
  let u: UnifiedCard;
  try {
    u = JSON.parse(json) as UnifiedCard;
  } catch {
    return undefined;
  }
  if (!u || typeof u !== 'object') return undefined;
  const components = Object.values(u.component_objects ?? {});
  const details = components.find((c) => c.type === 'details')?.data;
  const media = components.find((c) => c.type === 'media' || c.type === 'swipeable_media')?.data;
  const buttons = components.find((c) => c.type === 'button_group')?.data?.buttons ?? [];
  const destinations = u.destination_objects ?? {};
  const named = [details?.destination, ...buttons.map((x) => x.destination), media?.destination]
    .map((k) => (k ? destinations[k] : undefined))
    .find((d) => d?.data?.url_data?.url || d?.data?.app_id);
  const dest = (named ?? Object.values(destinations).find((d) => d?.data?.url_data?.url || d?.data?.app_id))?.data;
  const app = dest?.app_id ? u.app_store_data?.[dest.app_id]?.find((a) => storeUrl(a)) : undefined;
  const url = dest?.url_data?.url ?? (app ? storeUrl(app) : undefined);
  if (!url) return undefined;
  const mediaId = media?.id ?? media?.media_list?.[0]?.id ?? dest?.media_id;
  return compact({
    url,
    title: details?.title?.content || app?.title?.content || undefined,
    domain: dest?.url_data?.vanity || (app ? undefined : details?.subtitle?.content) || hostOf(url),
    imageUrl: mediaId ? u.media_entities?.[mediaId]?.media_url_https || undefined : undefined,
  });
}

function storeUrl(a: UnifiedApp): string | undefined {
  if (!a.id) return undefined;
  if (a.type === 'android_app') return `https://play.google.com/store/apps/details?id=${encodePart(a.id)}`;
  if (a.type === 'iphone_app' || a.type === 'ipad_app') return `https://apps.apple.com/app/id${encodePart(a.id)}`;
  return undefined;
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}
