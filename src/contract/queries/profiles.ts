// The query parameters of the profile reads: the profile with its posts, its connections, and the export.
import { z } from 'zod';
import { DEFAULT_EXPORT_POSTS, MAX_EXPORT_POSTS } from '../../domain/export.ts';
import { code, flag, sinceIdParam } from '../params/common.ts';
import { sinceParam, untilParam } from '../params/dates.ts';
import { listFilterShape } from '../params/feed-filters.ts';
import { listShape } from '../params/list.ts';
import { translateParam, translateShape } from '../params/lang.ts';

/** Query parameters of the profile routes: the list ones and a date window. */
export const profileShape = {
  since: sinceParam,
  until: untilParam,
  since_id: sinceIdParam,
  with_replies: flag.describe(
    'Also show the account\'s replies to other people (labelled "Replying to @…"); its replies to itself, the ' +
      'continuations of its own threads, are always shown. Default false.',
  ),
  with_reposts: flag.describe(
    'Also show the account\'s reposts (labelled "↻ Reposted by"). Default false; not available inside a date window.',
  ),
  ...listShape,
  ...listFilterShape,
  ...translateShape,
};
export const profileQuery = z.object(profileShape);
export type ProfileQuery = z.output<typeof profileQuery>;

const maxPostsParam = z
  .string(code('invalid_max_posts'))
  .regex(/^[0-9]{1,6}$/, code('invalid_max_posts'))
  .transform(Number)
  .refine((n) => n >= 1 && n <= MAX_EXPORT_POSTS, code('invalid_max_posts'))
  .optional()
  .describe(`Stop after this many posts, 1-${MAX_EXPORT_POSTS} (default ${DEFAULT_EXPORT_POSTS}).`);

export const exportQuery = z.object({
  since: sinceParam,
  until: untilParam,
  max_posts: maxPostsParam,
  with_replies: flag.describe(
    "Also export the account's replies to other people (they carry `replyTo`). Its replies to itself, the " +
      'continuations of its own threads, are always exported. Default false.',
  ),
  with_reposts: flag.describe(
    'Also export its reposts (they carry `repostOf`). Default false; not available inside a date window.',
  ),
  translate: translateParam,
  format: z
    .enum(['ndjson', 'json', 'zip'], code('invalid_format'))
    .optional()
    .describe(
      'ndjson (default): one post per line, streamed as pages are read, then the end line. json: one document. ' +
        'zip: a folder of Obsidian notes, one per post, streamed, with `export.json` (the end line) last.',
    ),
  media: z
    .enum(['remote', 'local'], code('invalid_media'))
    .optional()
    .describe(
      'With format=zip: local puts the media the notes hold under `attachments/` (each file once, by content hash) ' +
        'and embeds them; remote (default) links X.',
    ),
  cursor: z
    .string(code('invalid_export_cursor'))
    .max(4096, code('invalid_export_cursor'))
    .optional()
    .describe(
      "The `cursor` of an earlier export's end line: continue with its next post (same handle, window and options).",
    ),
});
