// The query parameters of the trends (GET /api/v1/trends and /trends).
import { z } from 'zod';
import { browseFormat, budgetParam, flag } from '../params/common.ts';

export const trendsQuery = z.object({
  format: browseFormat,
  nocache: flag.describe('Bypass the application cache; charged against the live-lookup quota.'),
  budget: budgetParam,
  woeid: z
    .string()
    .optional()
    .describe('Not offered: a place (Yahoo WOEID) of the trends; answered 501 trends_place_unsupported.'),
  place: z
    .string()
    .optional()
    .describe('Not offered: a place name of the trends; answered 501 trends_place_unsupported.'),
});
