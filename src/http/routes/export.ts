// GET /api/v1/profiles/{handle}/posts: an account's posts in one go, streamed as NDJSON (or one JSON document).
import { presentExportZip, ZIP_TYPE } from '../present/export-zip.ts';
import { z } from 'zod';
import {
  DEFAULT_EXPORT_POSTS,
  EXPORT_PAGE_SIZE,
  exportPosts,
  MAX_EXPORT_POSTS,
  planExport,
  translatedExport,
} from '../../domain/export.ts';
import type { TimelineOptions } from '../../domain/lists.ts';
import { exportEndSchema, exportJsonSchema } from '../../contract/json-schemas.ts';
import { profileHandle } from '../../contract/params/common.ts';
import { problemBody } from '../failures/problem-reply.ts';
import { toProblem } from '../failures/problem-of.ts';
import { Problem } from '../../problems/problem.ts';
import {
  NDJSON_TYPE,
  presentExportHead,
  presentExportJson,
  presentNdjson,
  type ExportReply,
} from '../present/export.ts';
import { defineRoute, type RouteDecl, type RouteDef } from '../../contract/route-decl.ts';
import { windowInput } from './profiles.ts';
import { exportQuery } from '../../contract/queries/profiles.ts';

/** Most media bytes one zip archive holds (media=local). */
const ZIP_MEDIA_BYTES = 1024 * 1024 * 1024;

const NDJSON_LINE_SCHEMA = {
  description:
    'One JSON object per line. Every line but the last is a post (the same object as `posts[]` of the profile ' +
    'JSON); the last line has `"type":"end"`.',
  oneOf: [
    { type: 'object', description: 'A post, as in `posts[]` of the JSON representations.' },
    (({ $schema: _drop, ...s }) => s)(z.toJSONSchema(exportEndSchema, { target: 'draft-2020-12', io: 'output' })),
  ],
};

const decl = {
  operationId: 'exportProfilePosts',
  path: '/api/v1/profiles/{handle}/posts',
  surface: 'v1',
  summary: "Export a profile's posts",
  description:
    `Up to ${MAX_EXPORT_POSTS} posts of an account in one go, newest first, optionally within a date window (` +
    "`since` ≤ time < `until`, read through X search like the profile route's window). The same posts as the " +
    'profile: its original posts with every continuation of its own threads; replies to others and reposts only ' +
    'when asked for. `format=ndjson` (the default) ' +
    'streams one post per line as pages are read, then a final line `{"type":"end","reason":…,"posts":N,"cursor":…}` ' +
    'saying why it stopped (max_posts, window, end_of_timeline, upstream_error, rate_limited, time_limit) and, when ' +
    'there may be more, the cursor to continue from. Once the first post is out the status is 200: a failure after ' +
    'it ends the stream with reason upstream_error and its `problem`, keeping every line already written; before it, ' +
    'the answer is the usual problem document. `format=json` answers one document, `{handle, window?, includes, ' +
    'posts, end}`, when the walk is over (a failure after the first post still answers 200 with the posts read and ' +
    `\`end.reason\` upstream_error). \`format=zip\` streams an archive of Obsidian notes, one per post named ` +
    '`<handle> <id> <first words>.md`, then `export.json` (`{end, media?}`); with `media=local` the media the notes ' +
    'hold are stored once each under `attachments/<sha256>.<ext>` and embedded beside their original URL (files gone ' +
    'or too large are listed in `media.skipped` and keep their links). ' +
    `Pages of ${EXPORT_PAGE_SIZE} are read through the cache, so a repeated or ` +
    'resumed export reuses them. Every export costs one point of `export-ip` (5 per 15 min per address) or, with a ' +
    'key, `export-key` (30 per 15 min); a keyed export skips the shared cache and also costs one `live-key` point ' +
    'per upstream page. A `HEAD` checks the input and the allowance without charging it or reading anything ' +
    'upstream: 200 (with the quota as it stands), 400 or 429 as the `GET` would start; an account that does not ' +
    'exist is only found by the `GET` (404).',
  tags: ['profiles'],
  params: z.object({ handle: profileHandle }),
  query: exportQuery,
  representations: [],
  keyAware: true,
  errors: [
    'invalid_lang',
    'invalid_handle',
    'invalid_date',
    'invalid_max_posts',
    'invalid_export_cursor',
    'invalid_format',
    'invalid_media',
    'invalid_flag',
    'invalid_key',
    'not_found',
    'upstream_error',
    'search_unavailable',
  ],
  json: exportJsonSchema,
  fixed: { mediaType: NDJSON_TYPE, alternatives: ['application/json', ZIP_TYPE], schema: NDJSON_LINE_SCHEMA },
} satisfies RouteDecl;

export const exportRoutes: RouteDef[] = [
  defineRoute(decl, async (ctx) => {
    const { query: q, services, req } = ctx;
    const { config } = services;
    const { guards } = ctx;
    const window = windowInput(q.since, q.until);
    const includes: TimelineOptions = { replies: q.with_replies ?? false, reposts: q.with_reposts ?? false };
    const handle = ctx.params.handle;
    if (q.media !== undefined && q.format !== 'zip') {
      throw new Problem('invalid_media', '`media` shapes the zip archive: add format=zip.');
    }
    const plan = planExport(services, {
      handle,
      window,
      includes,
      maxPosts: q.max_posts ?? DEFAULT_EXPORT_POSTS,
      cursor: q.cursor,
    });
    const key = guards.key;
    const headers: Record<string, string> = {
      // Keyed exports are read privately and charged to the key: the answer depends on Authorization.
      vary: 'Authorization',
      'cache-control': key.status === 'valid' ? 'private, no-store' : 'no-store',
      'x-api-key-status': key.status,
    };
    // A HEAD walks nothing: valid input and an allowance left are what a GET would start its 200 with.
    if (req.method === 'HEAD') {
      await guards.checkExport();
      return presentExportHead(q.format ?? 'ndjson', headers);
    }
    const lang = q.translate;
    const charged = await guards.exportPolicy();
    const policy = lang ? { ...charged, translate: lang } : charged;
    let firstPage: { source: string; cache: string } | undefined;
    const posts = exportPosts(services, plan, policy, {
      until: Date.now() + config.exportTimeLimitS * 1000,
      onPage: (read) => (firstPage ??= read),
    });
    const walk = lang ? translatedExport(posts, lang, services.translations, policy) : posts;
    // Nothing is sent before the first post: a failure up to here is an ordinary problem answer.
    const first = await walk.next();
    // The headers go out with the first post: its page's provenance is the one known by then.
    if (firstPage) Object.assign(headers, { 'x-source': firstPage.source, 'x-cache': firstPage.cache });
    const reply: ExportReply = {
      walk,
      first,
      problemOf: (error) => {
        const p = toProblem(error);
        if (p.code === 'internal_error') req.log.error({ err: error }, 'export cut short by an internal error');
        return problemBody(config.baseUrl, p, String(req.id));
      },
      headers,
    };
    if (q.format === 'zip') {
      const media =
        q.media === 'local'
          ? {
              hosts: config.mediaHosts,
              maxFileBytes: config.mediaMaxBytes,
              timeoutMs: Math.max(config.upstreamTimeoutMs, 30_000),
              userAgent: config.userAgent,
              charge: services.media.charge,
              payer: guards.payer(),
              maxRunBytes: ZIP_MEDIA_BYTES,
            }
          : undefined;
      return presentExportZip(reply, { baseUrl: config.baseUrl, ...(media ? { media } : {}) });
    }
    return q.format === 'json' ? presentExportJson(reply, { handle, window, includes }) : presentNdjson(reply);
  }),
];
