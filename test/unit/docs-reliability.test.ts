// docs/reliability.md is the catalog's reference as a file: generated, so it cannot drift from the codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { PROVIDER_NAMES } from '../../src/config.ts';
import { CATALOG, anchorFor } from '../../src/problems/catalog.ts';
import { renderReliabilityMarkdown } from '../../src/surface/docs/reliability-markdown.ts';

const FILE = new URL('../../docs/reliability.md', import.meta.url);

test('docs/reliability.md is generated from the catalog, one anchored entry per code', () => {
  const expected = renderReliabilityMarkdown(PROVIDER_NAMES);
  if (process.env.UPDATE_DOCS === '1') writeFileSync(FILE, expected);
  assert.equal(readFileSync(FILE, 'utf8'), expected, 'run with UPDATE_DOCS=1 to regenerate');
  for (const code of [...Object.keys(CATALOG), 'fxtwitter_error', 'all_providers_failed']) {
    assert.ok(expected.includes(`<a id="${anchorFor(code)}"></a>`), code);
  }
});
