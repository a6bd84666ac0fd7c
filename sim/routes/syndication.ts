// X syndication `tweet-result` (cdn.syndication.twimg.com), served under /syndication.
// Outcomes follow upstreams.md §2.1: 400 for a malformed id or a token that does not match the id,
// 200 Tweet JSON, 200 TweetTombstone for deleted and protected posts, a Tweet body without `user` for a
// suspended author (as observed upstream), and an HTML 404 for ids that are not posts.
import { visibility } from '../corpus-queries.ts';
import { syndicationToken, syndicationTombstone, syndicationTweet } from '../wire/syndication.ts';
import { html, json, type RouteModule } from './types.ts';

const NOT_FOUND_PAGE = '<!DOCTYPE html><html><head><title>404</title></head><body>Not Found</body></html>';

export const syndicationRoutes: RouteModule = {
  target: 'syndication',
  prefix: '/syndication',
  handle(req, { corpus: c }) {
    if (req.path !== '/tweet-result' || (req.method !== 'GET' && req.method !== 'HEAD')) return null;
    const id = req.query.get('id') ?? '';
    if (!/^\d{1,40}$/.test(id)) return json(400, { error: 'Invalid id' });
    if (req.query.get('token') !== syndicationToken(id)) return json(400, { error: 'Invalid token' });
    const v = visibility(c, id);
    if (v === 'missing') return html(404, NOT_FOUND_PAGE);
    if (v === 'deleted') return json(200, syndicationTombstone('deleted'));
    if (v === 'protected') return json(200, syndicationTombstone('protected'));
    const tweet = syndicationTweet(c, c.posts.get(id)!);
    if (v === 'suspended') delete tweet.user;
    return json(200, tweet);
  },
};
