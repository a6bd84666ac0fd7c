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
