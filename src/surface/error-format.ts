// The one rule for the format of an error answer, stated once: llms.txt and /docs print this sentence, and
// docs/api.md holds it word for word (test/http/error-format.test.ts checks all three).
import { esc } from './docs/html.ts';

export const ERROR_FORMAT_RULE =
  'Without `Accept` (or with `*/*`) every error is a problem document (`application/problem+json`), a missing ' +
  "profile's as much as a missing post's; only a request that names Markdown or HTML (`format=markdown`, " +
  '`Accept: text/markdown` or `text/html`) gets, for a missing account on the profile and list routes, a recovery ' +
  'document instead (what is missing, where to look next, the valid URL shapes). A detail never opens with a ' +
  "provider's name: the problem's `source` (or `failures`) names the provider.";

/** The rule as HTML: its code spans as <code>. */
export function errorFormatRuleHtml(): string {
  return esc(ERROR_FORMAT_RULE).replace(/`([^`]+)`/g, '<code>$1</code>');
}
