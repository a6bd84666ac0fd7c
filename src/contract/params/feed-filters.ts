// The filter parameters every feed route takes (include, exclude, media, min_likes, min_reposts, lang, title),
// validated into a FeedFilter; any bad value is 400 invalid_filter with a detail naming what is wrong.
import { z } from 'zod';
import {
  FilterSyntaxError,
  MAX_FILTER_TERMS,
  MAX_TERM_LENGTH,
  MEDIA_FILTERS,
  TITLE_STYLES,
  parseTerms,
  type FeedFilter,
  type TitleStyle,
} from '../../domain/feed-filters.ts';
import { InputRefusal } from '../refusal.ts';
import { code } from './common.ts';

/** Longest raw `include` or `exclude` value. */
const MAX_TERMS_PARAM = 1024;
const MAX_LANGS = 10;
const LANG_RE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;

function invalid(ctx: z.core.$RefinementCtx, detail: string): typeof z.NEVER {
  ctx.addIssue({ code: 'custom', message: 'invalid_filter', params: { detail } });
  return z.NEVER;
}

const terms = (name: string, what: string) =>
  z
    .string(code('invalid_filter'))
    .max(MAX_TERMS_PARAM, code('invalid_filter'))
    .transform((raw, ctx) => {
      try {
        return parseTerms(raw);
      } catch (e) {
        if (e instanceof FilterSyntaxError) return invalid(ctx, `\`${name}\`: ${e.message}.`);
        throw e;
      }
    })
    .optional()
    .describe(
      `${what} Words or "quoted phrases", separated by spaces or commas (at most ${MAX_FILTER_TERMS}, each at most ` +
        `${MAX_TERM_LENGTH} characters), matched as whole words, case-insensitively, on the post's text, link targets ` +
        'and alt texts (a repost: on the post it shows).',
    );

const count = (name: string, what: string) =>
  z
    .string(code('invalid_filter'))
    .regex(/^[0-9]{1,9}$/, code('invalid_filter'))
    .transform(Number)
    .optional()
    .describe(`Only posts with at least this many ${what} (a whole number; \`${name}=0\` keeps every post).`);

export const filterShape = {
  include: terms('include', 'Only posts matching at least one of these.'),
  exclude: terms('exclude', 'Leave out posts matching any of these.'),
  media: z
    .enum(MEDIA_FILTERS, code('invalid_filter'))
    .optional()
    .describe('only (posts with photos or videos) or none (posts without).'),
  min_likes: count('min_likes', 'likes'),
  min_reposts: count('min_reposts', 'reposts'),
  lang: z
    .string(code('invalid_filter'))
    .transform((raw, ctx) => {
      const tags = [...new Set(raw.split(',').map((t) => t.trim().toLowerCase()))];
      if (tags.length > MAX_LANGS) return invalid(ctx, `\`lang\` names more than ${MAX_LANGS} languages.`);
      const bad = tags.find((t) => !LANG_RE.test(t));
      if (bad !== undefined)
        return invalid(ctx, `\`lang\`: "${bad.slice(0, 20)}" is not a language tag such as en or pt-BR.`);
      return [...new Set(tags.map((t) => t.split('-')[0]!))];
    })
    .optional()
    .describe(
      `Only posts in these languages: language tags separated by commas (at most ${MAX_LANGS}), matched on the ` +
        'primary subtag (pt-BR matches pt); posts whose language the upstream did not give are left out.',
    ),
  title: z
    .enum(TITLE_STYLES, code('invalid_filter'))
    .optional()
    .describe("text (default: the post's first line) or author (`@handle: ` before it) as each item's title."),
};

export const LIST_FILTER_NOTE =
  ' Post filters as on the feeds: `include`, `exclude` (words or "quoted phrases"), `media=only|none`, ' +
  '`min_likes`, `min_reposts` and `lang` keep only some posts of each page (a filtered page may hold fewer than ' +
  '`limit`, or none, and still have a next page; `Continue →` keeps the filters); a bad filter is 400 invalid_filter.';

/** The filters of the list reads (profile, search, list posts): a list page has no item titles. */
export const listFilterShape = (({ title: _title, ...rest }) => rest)(filterShape);

export interface FilterQuery {
  include?: string[];
  exclude?: string[];
  media?: FeedFilter['media'];
  min_likes?: number;
  min_reposts?: number;
  lang?: string[];
  title?: TitleStyle;
}

/** The validated filter; a term both included and excluded could never match, so it is refused. */
export function filterOf(q: FilterQuery): FeedFilter {
  const include = q.include ?? [];
  const exclude = q.exclude ?? [];
  const both = include.find((t) => exclude.includes(t));
  if (both !== undefined)
    throw new InputRefusal('invalid_filter', `"${both.slice(0, 40)}" is both in \`include\` and in \`exclude\`.`);
  return {
    include,
    exclude,
    lang: q.lang ?? [],
    ...(q.media ? { media: q.media } : {}),
    ...(q.min_likes !== undefined ? { minLikes: q.min_likes } : {}),
    ...(q.min_reposts !== undefined ? { minReposts: q.min_reposts } : {}),
  };
}

/** The filter parameters as given (normalised), for a feed's self link: equal filters give equal links. */
export function filterParams(q: FilterQuery): Record<string, string | undefined> {
  const quote = (ts: string[] | undefined) => ts?.map((t) => (/[\s,]/u.test(t) ? `"${t}"` : t)).join(' ');
  return {
    include: quote(q.include),
    exclude: quote(q.exclude),
    media: q.media,
    min_likes: q.min_likes?.toString(),
    min_reposts: q.min_reposts?.toString(),
    lang: q.lang?.join(','),
    title: q.title,
  };
}
