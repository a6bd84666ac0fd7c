// OpenAPI for the push side, outside the GET route table: the keyed watch routes (POST and DELETE, the documented
// exception to the read-only surface) and the WebSub hub. Bodies come from the same zod schema the route validates with.
import { z } from 'zod';
import { WATCHES_PATH, HUB_PATH, WatchBody } from '../contract/watch-body.ts';
import type { CatalogCode } from '../problems/catalog.ts';
import { COMMON_ERRORS } from '../contract/route-decl.ts';
import { problemResponses } from './problem-responses.ts';
import type { JsonSchema } from './params.ts';

const KEYED: CatalogCode[] = ['key_required', 'invalid_key', 'key_store_unavailable', ...COMMON_ERRORS];

const DELIVERY: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'The webhook-id of every attempt of this delivery.' },
    createdAt: { type: 'string', format: 'date-time' },
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    attempts: { type: 'integer' },
    posts: { type: 'array', items: { type: 'string' }, description: 'Ids of the posts delivered.' },
    lastAttemptAt: { type: 'string', format: 'date-time' },
    lastStatus: { type: 'integer', description: "The callback's HTTP status on the last attempt." },
    lastError: { type: 'string' },
  },
};

const WATCH: JsonSchema = {
  type: 'object',
  required: ['id', 'source', 'callback', 'state', 'intervalS', 'createdAt'],
  properties: {
    id: { type: 'string' },
    source: { type: 'string', description: 'The source as normalised: a path on this service with its filters.' },
    callback: { type: 'string', format: 'uri' },
    state: { type: 'string', enum: ['active', 'disabled'] },
    disabledReason: { type: 'string', description: 'Why the watch was disabled (its run of failed attempts).' },
    intervalS: { type: 'number', description: 'How often the source is read.' },
    createdAt: { type: 'string', format: 'date-time' },
    secret: {
      type: 'string',
      description: 'Standard Webhooks signing secret (whsec_…); only in the answer to the creation.',
    },
  },
};

const json = (schema: JsonSchema) => ({ content: { 'application/json': { schema } } });
const security = [{ bearerKey: [] }];
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

const PUSH_NOTE =
  'Each watched source is read once per interval whatever the number of followers; new posts are POSTed to the ' +
  'callback as JSON `{"type":"posts.new","timestamp","data":{"watch","source","posts":[…]}}` (posts in the ' +
  "service's JSON representation, oldest first), signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, " +
  '`webhook-signature`). At least once: retried with exponential backoff under the same `webhook-id`; after ' +
  'THREADMARK_WEBHOOK_ATTEMPTS failed attempts of one delivery (8 by default) the watch is disabled and says why.';

export function pushPaths(): Record<string, Record<string, unknown>> {
  const { $schema: _s, ...body } = z.toJSONSchema(WatchBody, { target: 'draft-2020-12', io: 'input' }) as JsonSchema;
  return {
    [WATCHES_PATH]: {
      get: {
        operationId: 'listWatches',
        summary: "The key's watches",
        description: 'Every watch of the API key, oldest first, with the most a key may have (`limit`).',
        tags: ['push'],
        security,
        responses: {
          '200': {
            description: 'OK',
            ...json({
              type: 'object',
              properties: { watches: { type: 'array', items: WATCH }, limit: { type: 'integer' } },
            }),
          },
          ...problemResponses(KEYED),
        },
      },
      post: {
        operationId: 'createWatch',
        summary: 'Watch a source: new posts pushed to a signed webhook',
        description:
          PUSH_NOTE +
          ' Charged to the key: watch-key, 60 creations an hour (RateLimit headers); each background read of the ' +
          'source is charged to a key that watches it (poll-key, and account-key for a call that spends an X ' +
          'session), and a source none of its followers can pay for waits until one can.',
        tags: ['push'],
        security,
        requestBody: { required: true, ...json(body) },
        responses: {
          '201': { description: 'The watch, with its signing secret (shown once).', ...json(WATCH) },
          ...problemResponses([
            ...KEYED,
            'invalid_body',
            'invalid_source',
            'invalid_filter',
            'invalid_callback',
            'too_many_watches',
          ]),
        },
      },
    },
    [`${WATCHES_PATH}/{id}`]: {
      get: {
        operationId: 'getWatch',
        summary: 'A watch, its state and its recent deliveries',
        description:
          'The watch, why it was disabled if it was, and its latest deliveries (newest first) with their outcomes.',
        tags: ['push'],
        security,
        parameters: [idParam],
        responses: {
          '200': {
            description: 'OK',
            ...json({
              ...WATCH,
              properties: { ...(WATCH.properties as object), deliveries: { type: 'array', items: DELIVERY } },
            }),
          },
          ...problemResponses([...KEYED, 'not_found']),
        },
      },
      delete: {
        operationId: 'deleteWatch',
        summary: 'End a watch',
        description: 'Ends the watch; deliveries still pending are dropped.',
        tags: ['push'],
        security,
        parameters: [idParam],
        responses: { '204': { description: 'Deleted' }, ...problemResponses([...KEYED, 'not_found']) },
      },
    },
    [HUB_PATH]: {
      get: {
        operationId: 'hub',
        summary: 'The WebSub hub of every feed',
        description: 'Describes the hub: every feed names it with rel="hub" and itself with rel="self".',
        tags: ['push'],
        responses: { '200': { description: 'OK', ...json({ type: 'object' }) }, ...problemResponses(COMMON_ERRORS) },
      },
      post: {
        operationId: 'hubSubscribe',
        summary: 'Subscribe to a feed or unsubscribe (W3C WebSub)',
        description:
          'Form-encoded `hub.mode` (subscribe|unsubscribe), `hub.topic` (a feed URL of this service), `hub.callback`, ' +
          'optional `hub.lease_seconds` (60 s to one day, one day by default; subscribe again to renew) and ' +
          '`hub.secret` (pushes then carry `X-Hub-Signature-256`). Answered 202; the hub then verifies intent with a ' +
          'GET carrying `hub.challenge`, which the callback must echo. When the topic gains posts the hub POSTs the ' +
          'feed document. Charged per client address: hub-ip, 60 requests an hour. The subscribing address pays for ' +
          "the topic's background reads (poll-ip, and account-ip for a call that spends an X session; a source none " +
          'of its subscribers can pay for waits until one can) and holds at most 10 live subscriptions (409 ' +
          '`too_many_subscriptions`; a renewal is always accepted).',
        tags: ['push'],
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': {
              schema: {
                type: 'object',
                required: ['hub.mode', 'hub.topic', 'hub.callback'],
                properties: {
                  'hub.mode': { type: 'string', enum: ['subscribe', 'unsubscribe'] },
                  'hub.topic': { type: 'string', format: 'uri' },
                  'hub.callback': { type: 'string', format: 'uri' },
                  'hub.lease_seconds': { type: 'integer' },
                  'hub.secret': { type: 'string', maxLength: 200 },
                },
              },
            },
          },
        },
        responses: {
          '202': { description: 'Accepted; intent is verified next.' },
          ...problemResponses([
            ...COMMON_ERRORS,
            'invalid_hub_request',
            'invalid_source',
            'invalid_filter',
            'invalid_callback',
            'too_many_subscriptions',
          ]),
        },
      },
    },
  };
}
