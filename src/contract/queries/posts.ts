// The query parameters of the post reads (GET /api/v1/posts, the permalink and the convert alias).
import { z } from 'zod';
import {
  budgetParam,
  code,
  contextParam,
  flag,
  postFormat,
  repliesParam,
  threadParam,
  userinfoParam,
} from '../params/common.ts';
import { langAliasParam, translateParam } from '../params/lang.ts';
import { noteShape } from '../params/note.ts';

export const optionShape = {
  format: postFormat,
  thread: threadParam,
  context: contextParam,
  replies: repliesParam,
  userinfo: userinfoParam,
  full: flag,
  nocache: flag.describe('Bypass the application cache; charged against the live-lookup quota.'),
  budget: budgetParam,
  ...noteShape,
  translate: translateParam,
  lang: langAliasParam,
};

export const identShape = {
  url: z
    .string(code('invalid_url'))
    .optional()
    .describe('Status permalink on x.com or twitter.com. Takes precedence over handle + id.'),
  handle: z.string(code('invalid_params')).optional().describe('Author handle, paired with id.'),
  id: z.string(code('invalid_params')).optional().describe('Numeric status id, paired with handle.'),
};

export const optionQuery = z.object(optionShape);
/** The read options every post route takes, as validation hands them over. */
export type PostOptionQuery = z.output<typeof optionQuery>;

/** GET /api/v1/posts: the post by its permalink or by handle + id, and the read options. */
export const postsQuery = z.object({ ...identShape, ...optionShape });
