// The /docs section on the reads hanging off a post or a profile: quotes, reposts, the media and Articles tabs,
// and account facts.
import { DISCOVERY_PATHS } from '../paths.ts';
import { anchorFor } from '../../problems/catalog.ts';

/** `link` turns a path into an escaped absolute URL of this service. */
export function tabsSection(link: (path: string) => string): string {
  const code = (c: string) => `<a href="${link(DISCOVERY_PATHS.reliability)}#${anchorFor(c)}"><code>${c}</code></a>`;
  return `<h2 id="quotes-reposts-tabs">Quotes, reposts, profile tabs and account facts</h2>
<p><code>/{handle}/status/{id}/quotes</code> (<code>/api/v1/posts/{id}/quotes</code>, MCP tool <code>list_quotes</code>, CLI <code>threadmark quotes</code>) pages the posts quoting a post, newest first, each shown without the quoted post it repeats; it takes the post filters, and <code>/{handle}/status/{id}/quotes/rss</code> (<code>/api/v1/posts/{id}/quotes/feed?type=rss|atom|json</code>) is its feed. <code>/{handle}/status/{id}/reposts</code> (<code>list_reposts</code>, <code>threadmark reposts</code>) pages the accounts that reposted it. <code>/{handle}/media</code> (<code>list_media</code>) is the account's own posts with photos or videos; <code>/{handle}/articles</code> (<code>list_articles</code>) its X Articles, each rendered whole. The post or profile is read with the first page: a deleted, protected or impossible post, or an unknown, suspended or protected account, is 404 <code>not_found</code> (an impossible id without asking any upstream).</p>
<p>These read FxTwitter first and, with the deployment's X sessions, X (quotes: its search for <code>quoted_tweet_id:</code>; reposts: Retweeters; media: UserMedia), each X call charged to <code>account-ip</code> or <code>account-key</code>; the Articles tab is FxTwitter only. When no configured provider serves a read the answer is 503 ${code('read_unavailable')} with <code>Retry-After</code>.</p>
<p><code>/{handle}/about</code> (<code>/api/v1/profiles/{handle}/about</code>, <code>read_about</code>, <code>threadmark about</code>) states what X shows about an account beyond its bio: where it is based (and whether X trusts that), how it connects, when it joined, whether it is verified and since when, how many times its username changed and when last, and its affiliate badge. A fact no upstream gave is said to be unknown (JSON: absent from <code>facts</code> and named in <code>unknown</code>), never guessed; FxTwitter names no affiliate badge, X's AboutAccountQuery does.</p>`;
}
