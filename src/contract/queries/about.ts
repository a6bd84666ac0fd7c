// The query parameters of an account's facts (GET /api/v1/profiles/{handle}/about and /{handle}/about).
import { z } from 'zod';
import { browseFormat, budgetParam, flag } from '../params/common.ts';

export const aboutQuery = z.object({
  format: browseFormat,
  budget: budgetParam.describe(
    'Output budget: at most this many characters of Markdown (500-200000). The facts are one short document that ' +
      'does not give way: a budget it does not fit is 400 invalid_budget naming the size it needs.',
  ),
  full: flag,
  nocache: flag.describe('Bypass the application cache; charged against the live-lookup quota.'),
});
