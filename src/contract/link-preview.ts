// Link-preview crawlers (chat apps, social networks, unfurl services) fetch a pasted permalink to build a preview
// card. Most send no Accept header or `*/*`, which would get our default Markdown and an empty card, so on the
// routes people paste they get the HTML page (with its Open Graph and Twitter-card metadata) instead.

/** Who we recognise, by a token of the User-Agent header (case-insensitive); documented on /docs. */
export const LINK_PREVIEW_CRAWLERS: ReadonlyArray<{ name: string; token: string }> = [
  { name: 'Slack', token: 'Slackbot' },
  { name: 'Slack (image proxy)', token: 'Slack-ImgProxy' },
  { name: 'Discord', token: 'Discordbot' },
  { name: 'Telegram', token: 'TelegramBot' },
  { name: 'X / Twitter', token: 'Twitterbot' },
  { name: 'Facebook, Messenger, Instagram, iMessage', token: 'facebookexternalhit' },
  { name: 'Facebook', token: 'Facebot' },
  { name: 'LinkedIn', token: 'LinkedInBot' },
  { name: 'WhatsApp', token: 'WhatsApp' },
  { name: 'Mastodon', token: 'Mastodon/' },
  { name: 'Pleroma / Akkoma', token: 'Pleroma' },
  { name: 'Misskey', token: 'Misskey' },
  { name: 'Bluesky', token: 'Cardyb' },
  { name: 'Matrix (Synapse)', token: 'Synapse' },
  { name: 'Microsoft Teams / Skype', token: 'SkypeUriPreview' },
  { name: 'Reddit', token: 'redditbot' },
  { name: 'Pinterest', token: 'Pinterestbot' },
  { name: 'VK', token: 'vkShare' },
  { name: 'Viber', token: 'Viber' },
  { name: 'Zulip', token: 'ZulipURLPreview' },
  { name: 'Mattermost', token: 'Mattermost-Bot' },
  { name: 'Iframely', token: 'Iframely' },
  { name: 'Embedly', token: 'Embedly' },
];

const PATTERN = new RegExp(
  LINK_PREVIEW_CRAWLERS.map((c) => c.token.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'),
  'i',
);

export function isLinkPreviewCrawler(userAgent: string | undefined): boolean {
  return !!userAgent && PATTERN.test(userAgent);
}

/**
 * The normalised request header a shared cache sets from the User-Agent (deploy/varnish.vcl, the CDN rules in
 * docs/deployment.md): `1` for a link-preview crawler, `0` for anyone else. Responses vary on it instead of on
 * the User-Agent, whose values no CDN can key on. A client may send it itself; it can only choose between two
 * representations it could also ask for with `format`.
 */
export const PREVIEW_HEADER = 'x-link-preview';
export const PREVIEW_VARY = 'X-Link-Preview';

/**
 * How the crawler split was decided: by the normalised header when a cache in front set it, else by the
 * User-Agent (a direct client). `ua-crawler` answers must stay out of shared caches (they key on the header).
 */
export type PreviewDecision = 'header-crawler' | 'header-other' | 'ua-crawler' | 'ua-other';

export function previewDecision(headers: Record<string, string | string[] | undefined>): PreviewDecision {
  const set = headers[PREVIEW_HEADER];
  if (typeof set === 'string') return set.trim() === '1' ? 'header-crawler' : 'header-other';
  const ua = headers['user-agent'];
  return isLinkPreviewCrawler(typeof ua === 'string' ? ua : undefined) ? 'ua-crawler' : 'ua-other';
}

export function isPreviewCrawler(decision: PreviewDecision): boolean {
  return decision === 'header-crawler' || decision === 'ua-crawler';
}
