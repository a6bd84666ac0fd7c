// Build tools are dev dependencies (production runs the bundle), and the package carries no
// `allowScripts` field (npm ignores it; the README states the install-script stance instead).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  allowScripts?: unknown;
};
const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

test('tsx and esbuild are dev dependencies only', () => {
  for (const tool of ['tsx', 'esbuild']) {
    assert.equal(pkg.dependencies[tool], undefined, `${tool} is not a runtime dependency`);
    assert.ok(pkg.devDependencies[tool], `${tool} is a dev dependency`);
  }
});

test('no allowScripts field; the README says which install scripts run and why', () => {
  assert.equal(pkg.allowScripts, undefined);
  assert.match(readme, /\*\*Dependencies and install scripts\.\*\*[\s\S]*better-sqlite3[\s\S]*--ignore-scripts/);
});
