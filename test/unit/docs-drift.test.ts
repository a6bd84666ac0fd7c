// What a clone's reader meets in the README and docs/: links that resolve inside the repository, the licence
// package.json names, and reference sections a reader can find their way through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;
const MARKDOWN = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);

test('the README and docs/ name no path outside the repository, and every relative link resolves', () => {
  for (const file of MARKDOWN) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    assert.doesNotMatch(text, /\.\.\/shared\b/, `${file} names ../shared, which a clone does not have`);
    for (const m of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      const target = String(m[1]);
      if (/^[a-z]+:/.test(target) || !/^[\w./-]+$/.test(target)) continue;
      const path = normalize(join(dirname(join(ROOT, file)), target));
      assert.ok(path.startsWith(ROOT) && existsSync(path), `${file} links ${target}, which the repository lacks`);
    }
  }
});

test('LICENSE holds the MIT licence package.json names, for the threadmark authors', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { license: string };
  assert.equal(pkg.license, 'MIT');
  const license = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
  assert.match(license, /^MIT License\n/);
  assert.match(license, /Copyright \(c\) the threadmark authors/);
  assert.match(license, /THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND/);
});

test("api.md's behaviour worth knowing is grouped under headings, a few entries each", () => {
  const api = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');
  const start = api.indexOf('## Behaviour worth knowing');
  assert.ok(start >= 0);
  const next = api.indexOf('\n## ', start + 3);
  const section = api.slice(start, next < 0 ? undefined : next);
  const groups = section.split(/\n### /).slice(1);
  assert.ok(groups.length >= 5, `${groups.length} headings`);
  assert.doesNotMatch(section.split(/\n### /)[0]!, /\n- \*\*/, 'entries before the first heading');
  for (const g of groups) {
    const entries = g.match(/\n- \*\*/g)?.length ?? 0;
    assert.ok(entries >= 1 && entries <= 8, `${g.split('\n')[0]}: ${entries} entries`);
  }
});
