// The domain is the core every other layer is built around: it declares the ports it needs and imports nothing
// from outside src/domain, not a sibling layer, not a package, not a Node built-in (crypto, I/O and HTTP problems
// are adapters' and the edge's). Imports are read with TypeScript's pre-processor, which sees every form the
// compiler sees (type-only, re-exports, dynamic import()).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const DOMAIN = join('src', 'domain');

test('src/domain imports nothing from outside src/domain', () => {
  const files = readdirSync(DOMAIN, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  assert.ok(files.length > 10, `scanned ${files.length} files`);
  const outside: string[] = [];
  for (const file of files) {
    const path = join(DOMAIN, file);
    for (const { fileName: spec } of ts.preProcessFile(readFileSync(path, 'utf8'), true, true).importedFiles) {
      const inside = spec.startsWith('.') && !relative(DOMAIN, normalize(join(dirname(path), spec))).startsWith('..');
      if (!inside) outside.push(`${path.split(sep).join('/')} → ${spec}`);
    }
  }
  assert.deepEqual(outside, []);
});
