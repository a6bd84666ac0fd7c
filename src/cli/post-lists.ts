// The list commands that hang off a post or a profile tab: `quotes`, `reposts`, `articles` and `media` (run like
// `followers`).
import type { ListKind } from './lists.ts';

const POST_HELP = 'status URL (x.com or twitter.com), handle/status/id, or the numeric post id';

export const POST_LIST_COMMANDS: Array<[ListKind, string, string, string]> = [
  ['quotes', '<post>', 'posts quoting a post, newest first', POST_HELP],
  ['reposts', '<post>', 'accounts that reposted a post', POST_HELP],
  [
    'articles',
    '<handle>',
    "a profile's X Articles, each whole (its Articles tab)",
    'account handle, @handle or profile URL',
  ],
  [
    'media',
    '<handle>',
    "a profile's posts with photos or videos (its media tab)",
    'account handle, @handle or profile URL',
  ],
];
