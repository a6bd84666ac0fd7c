// X GraphQL User → domain Author. Since 2025 X splits the user into core/avatar/location/privacy/
// relationship_counts/...; older answers (and many current ones) still carry everything in `legacy`.
// New fields win, legacy fills the gaps.
import type { Author } from '../../domain/models.ts';
import { largerAvatar, toIso } from '../shared/dates.ts';
import { segmentsFromRaw, textOf, type TextFacet } from '../shared/segments.ts';
import type { XEntitySet, XUser, XUserResult } from './wire.ts';

export function isUser(r: XUserResult | undefined): r is XUser {
  return !!r && r.__typename !== 'UserUnavailable' && !!r.rest_id;
}

export function parseUser(result: XUserResult | undefined): Author | undefined {
  if (!isUser(result)) return undefined;
  const u = result;
  const legacy = u.legacy ?? {};
  const handle = u.core?.screen_name ?? legacy.screen_name;
  if (!u.rest_id || !handle) return undefined;
  const bio = u.profile_bio?.description ?? legacy.description;
  const bioUrls = u.profile_bio?.entities?.description?.urls ?? legacy.entities?.description?.urls ?? [];
  const author: Author = {
    id: u.rest_id,
    handle,
    name: u.core?.name ?? legacy.name ?? handle,
  };
  assign(author, 'avatarUrl', largerAvatar(u.avatar?.image_url ?? legacy.profile_image_url_https));
  assign(author, 'bannerUrl', u.banner?.image_url ?? legacy.profile_banner_url);
  if (bio) {
    author.bio = bio;
    if (bioUrls.length > 0) {
      // The stored bio holds t.co links; show the expanded ones.
      author.bioSegments = segmentsFromRaw({ text: bio, facets: urlFacets(bioUrls) });
      author.bio = textOf(author.bioSegments);
    }
  }
  assign(author, 'location', u.location?.location ?? legacy.location);
  const siteUrls = legacy.entities?.url?.urls ?? u.profile_bio?.entities?.url?.urls;
  assign(author, 'website', siteUrls?.[0]?.expanded_url ?? u.website?.url ?? legacy.url);
  assign(author, 'joined', toIso(u.core?.created_at ?? legacy.created_at));
  assign(author, 'followers', u.relationship_counts?.followers ?? legacy.followers_count);
  assign(author, 'following', u.relationship_counts?.following ?? legacy.friends_count);
  assign(author, 'posts', u.tweet_counts?.tweets ?? legacy.statuses_count);
  assign(author, 'likes', u.action_counts?.favorites_count ?? legacy.favourites_count);
  assign(author, 'mediaCount', u.tweet_counts?.media_tweets ?? legacy.media_count);
  author.verified = !!(u.is_blue_verified || u.verification?.verified || legacy.verified || legacy.verified_type);
  author.protected = !!(u.privacy?.protected ?? legacy.protected);
  return author;
}

function urlFacets(urls: NonNullable<XEntitySet['urls']>): TextFacet[] {
  return urls.map((x) => ({
    type: 'url',
    start: x.indices[0],
    end: x.indices[1],
    original: x.url,
    href: x.expanded_url ?? x.url,
  }));
}

/** Empty strings from X mean "not set". */
function assign<K extends keyof Author>(a: Author, key: K, value: Author[K] | '' | null | undefined): void {
  if (value !== undefined && value !== null && value !== '') a[key] = value;
}
