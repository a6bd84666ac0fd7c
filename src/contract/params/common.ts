// Query and path parameter schemas shared by the route declarations. Each schema's error message is the
// catalog code to answer with, so one zod issue maps straight to one problem document.
import { z } from 'zod';
import type { CatalogCode } from '../../problems/catalog.ts';
import { HANDLE_RE } from '../../domain/handles.ts';

export { HANDLE_RE };
export const STATUS_ID_RE = /^[0-9]+$/;
/** Longest id a `since_id` filter takes (ids beyond the platform's range simply filter nothing). */
export const MAX_ID_DIGITS = 25;
/** X List ids: digits (one beyond the snowflake range is a 404, like a status id). */
export const LIST_ID_RE = /^[0-9]+$/;
/** Numeric account ids (rest_id) are 64-bit: at most 20 digits. */
export const ACCOUNT_ID_RE = /^[0-9]{1,20}$/;

/** First path segments that belong to the site (or the platform) and so are never handles. */
export const RESERVED_PATHS = new Set(
  [
    'api',
    'docs',
    'about',
    'search',
    'oembed',
    'mcp',
    'admin',
    '.well-known',
    'favicon.ico',
    'robots.txt',
    'llms.txt',
    'openapi.json',
    'healthz',
    'readyz',
    'metrics',
    'home',
    'explore',
    'notifications',
    'messages',
    'settings',
    'login',
    'logout',
    'signup',
    'i',
    'intent',
    'share',
    'hashtag',
    'cashtag',
    'trends',
    'privacy',
    'tos',
    'static',
    'assets',
    'status',
    'compose',
    'account',
    'help',
    'jobs',
  ].map((s) => s.toLowerCase()),
);

export function isReservedPath(segment: string): boolean {
  return RESERVED_PATHS.has(segment.toLowerCase());
}

/** A schema's error message is the catalog code to answer with; typed, so a misspelt code fails to compile. */
export const code = (c: CatalogCode) => ({ error: c });

/** true, 1, yes / false, 0 (no also accepted: widening a boolean is additive). */
export const flag = z
  .enum(['true', '1', 'yes', 'false', '0', 'no'], code('invalid_flag'))
  .transform((v) => v === 'true' || v === '1' || v === 'yes')
  .optional()
  .describe('Boolean: true, 1, yes, false or 0.');

export const postFormat = z
  .enum(['markdown', 'obsidian', 'json'], code('invalid_format'))
  .optional()
  .describe('Representation; overrides Accept. obsidian = Obsidian-flavoured Markdown.');

export const browseFormat = z
  .enum(['markdown', 'json'], code('invalid_format'))
  .optional()
  .describe('Representation; overrides Accept. obsidian is not supported on list routes.');

export const threadParam = z
  .string(code('invalid_thread'))
  .regex(/^(off|full|conversation|[2-9]|[1-9][0-9]|100)$/, code('invalid_thread'))
  .optional()
  .describe(
    'off = the post alone; full or conversation = everything available; 2-100 = at most that many posts in all ' +
      '(thread posts, earlier posts and replies); a cut says what it kept and left out of each, and links the whole read.',
  );

export const contextParam = z
  .enum(['full', 'thread'], code('invalid_context'))
  .optional()
  .describe("full walks parents and replies; thread keeps only the author's own chain.");

export const repliesParam = z
  .enum(['top', 'recent', 'off'], code('invalid_replies'))
  .optional()
  .describe('Which replies are included and how they are ordered.');

export const userinfoParam = z
  .enum(['off', 'author', 'all'], code('invalid_userinfo'))
  .optional()
  .describe('Author metadata in the Markdown: none, thread author only, or all participants.');

/** Path handle on profile routes: reserved site paths are not routes of ours, anything else must match. */
export const profileHandle = z
  .string()
  .refine((h) => !isReservedPath(h), code('route_not_found'))
  .refine((h) => HANDLE_RE.test(h), code('invalid_handle'))
  .describe('Account handle, 1-15 letters, digits or underscores, no leading @.');

export const statusHandle = z
  .string()
  .refine((h) => !isReservedPath(h), code('route_not_found'))
  .refine((h) => HANDLE_RE.test(h), code('invalid_params'))
  .describe('Account handle of the post author.');

export const statusId = z.string().regex(STATUS_ID_RE, code('invalid_params')).describe('Numeric status id.');

const wholeNumber = (c: CatalogCode) =>
  z
    .string(code(c))
    .regex(/^[0-9]{1,6}$/, code(c))
    .transform(Number);

export const pageParam = wholeNumber('invalid_page')
  .refine((n) => n >= 1, code('invalid_page'))
  .transform((n) => Math.min(n, 10))
  .optional()
  .describe('Page 1-10 (above 10 is clamped). Walks cursors internally: slower than cursor.');

export const limitParam = wholeNumber('invalid_page')
  .refine((n) => n >= 1, code('invalid_page'))
  .transform((n) => Math.min(n, 20))
  .optional()
  .describe(
    'Items per page, 1-20 (default 20, above 20 is clamped). A page never holds more: when the upstream answers ' +
      'with more (X sends 60-70 followers per page), `nextCursor` continues inside that answer, so nothing is lost.',
  );

export const sinceIdParam = z
  .string(code('invalid_since_id'))
  .regex(new RegExp(`^[0-9]{1,${MAX_ID_DIGITS}}$`), code('invalid_since_id'))
  .optional()
  .describe(
    'Incremental read: only posts newer than this status id (the newest one you already have), newest first. ' +
      'Nothing new gives an empty page in the usual envelope; a page that reaches since_id has no nextCursor.',
  );

export const budgetParam = wholeNumber('invalid_budget')
  .refine((n) => n >= 500 && n <= 200_000, code('invalid_budget'))
  .optional()
  .describe(
    'Output budget: at most this many characters (Unicode code points) of Markdown, 500-200000. What gives way ' +
      'first: the lowest-ranked replies, then further replies, then the oldest earlier posts, then trailing posts ' +
      'or list items; never the requested post, never a post cut mid-text. What was left out is named in X-Warnings ' +
      'and in a closing line linking to the unbudgeted read; JSON holds only what the Markdown kept.',
  );

export const cursorParam = z
  .string(code('invalid_cursor'))
  .max(4096, code('invalid_cursor'))
  .optional()
  .describe('The nextCursor of a previous response, sent back unchanged. Takes precedence over page.');
