// FxTwitter API v2 lists hanging off a post or a profile tab, in the shapes of FxEmbed's src/realms/api/routes.ts:
// /2/status/{id}/quotes, /2/profile/{h}/media and /2/profile/{h}/articles answer APISearchResults ({code, results: statuses, cursor: {top,
// bottom}}), /2/status/{id}/reposts APIUserListResults ({code, results: users, cursor}). Quotes are FxTwitter's
// Latest search for `quoted_tweet_id:`, so "no quotes" is its search's 404 with an empty list; reposts and media
// answer an unavailable timeline the same way; a non-numeric id is 400. /2/profile/{h}/about answers
// ProfileAboutAPIResponse ({code, message, about_account?}).
import type { SimCorpus } from '../corpus-types.ts';
import { profileTab, reposters, search, visibility } from '../corpus-queries.ts';
import { fxStatus, fxUser } from '../wire/fxtwitter.ts';
import { badRequest, emptyList, isResponse, isSnowflake, listRoute, profileUser, reply } from './fxtwitter.ts';
import type { SimResponse } from './types.ts';

function quotesRoute(c: SimCorpus, id: string, q: URLSearchParams): SimResponse {
  const found = visibility(c, id) === 'ok' ? search(c, `quoted_tweet_id:${id}`, 'latest') : [];
  if (found.length === 0) return emptyList(404);
  return listRoute(found, q, 20, `quotes:${id}`, (p) => fxStatus(c, p));
}

function repostsRoute(c: SimCorpus, id: string, q: URLSearchParams): SimResponse {
  const users = visibility(c, id) === 'ok' ? reposters(c, id) : [];
  if (users.length === 0) return emptyList(404);
  return listRoute(users, q, 20, `reposts:${id}`, (u) => fxUser(u));
}

function tabRoute(c: SimCorpus, handle: string, tab: 'media' | 'articles', q: URLSearchParams): SimResponse {
  const user = profileUser(c, handle);
  if (isResponse(user)) return emptyList(404);
  if (user.protected) return reply(200, { code: 200, results: [], cursor: { top: null, bottom: null } });
  const posts = profileTab(c, user, tab);
  if (posts.length === 0) return emptyList(404);
  return listRoute(posts, q, 20, `${tab}:${user.id}`, (p) => fxStatus(c, p));
}

/** `/2/profile/{h}/about`: X's about facts, `about_account` omitted when X has none (ProfileAboutAPIResponse). */
function aboutRoute(c: SimCorpus, handle: string): SimResponse {
  const user = profileUser(c, handle);
  if (isResponse(user)) return reply(404, { code: 404, message: 'User not found' });
  const a = user.about;
  if (!a) return reply(200, { code: 200, message: 'OK' });
  return reply(200, {
    code: 200,
    message: 'OK',
    about_account: {
      based_in: a.basedIn,
      location_accurate: a.locationAccurate,
      created_country_accurate: true,
      source: a.source,
      username_changes: {
        count: a.usernameChanges,
        last_changed_at: a.lastUsernameChange ? new Date(a.lastUsernameChange).toISOString() : null,
      },
    },
  });
}

/** The tab routes, or null when the path is none of them. */
export function fxTabRoute(c: SimCorpus, parts: string[], q: URLSearchParams): SimResponse | null {
  const [, kind, arg, sub] = parts;
  if (parts.length !== 4 || !arg) return null;
  if (kind === 'status' && (sub === 'quotes' || sub === 'reposts')) {
    if (!isSnowflake(arg)) return badRequest('Invalid status ID');
    return sub === 'quotes' ? quotesRoute(c, arg, q) : repostsRoute(c, arg, q);
  }
  if (kind === 'profile' && (sub === 'media' || sub === 'articles')) return tabRoute(c, arg, sub, q);
  if (kind === 'profile' && sub === 'about') return aboutRoute(c, arg);
  return null;
}
