// The body of POST /api/v1/watches, declared once: the route validates with it and OpenAPI describes it.
import { z } from 'zod';

export const WatchBody = z
  .object({
    source: z
      .string()
      .min(1)
      .max(2048)
      .describe(
        'The source by its path on this service, with feed filters as query parameters: /alice_dev, ' +
          '/alice_dev/with_replies, /search?q=caching, /alice_dev/status/1900000000000000001, /i/lists/1900000000000090001.',
      ),
    callback: z
      .string()
      .min(1)
      .max(2048)
      .describe('https URL on a public address that receives the deliveries (POST, JSON, signed).'),
  })
  .strict();

export const WATCHES_PATH = '/api/v1/watches';
export const HUB_PATH = '/api/v1/hub';
