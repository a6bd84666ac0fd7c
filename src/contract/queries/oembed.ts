// The query parameters of the oEmbed endpoint (GET /api/v1/oembed and /oembed).
import { z } from 'zod';
import { code } from '../params/common.ts';

const dimension = z
  .string(code('invalid_dimension'))
  .regex(/^[1-9][0-9]{0,4}$/, code('invalid_dimension'))
  .transform(Number)
  .optional();

export const oembedQuery = z.object({
  url: z
    .string(code('invalid_url'))
    .optional()
    .describe(
      'A permalink of this service: {base}/{handle}/status/{id} or {base}/i/status/{id} (post), {base}/{handle} or ' +
        '{base}/i/user/{id} (profile). Required.',
    ),
  maxwidth: dimension.describe(
    'Largest width in pixels the consumer can show; the embed is never wider (default 550).',
  ),
  maxheight: dimension.describe(
    'Largest height in pixels the consumer can show; the reported height never exceeds it.',
  ),
  format: z
    .enum(['json'], code('invalid_format'))
    .optional()
    .describe('Only json is offered (oEmbed XML is not); anything else is 400 invalid_format.'),
});

export type OembedQuery = z.output<typeof oembedQuery>;
