// Every public read has a client method, and each method's types come from the schemas its route declares: the
// client's line for an operationId names the route's path, and the contract's schemas are the route's own objects.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PUBLIC_ROUTES } from '../../src/route-table.ts';
import { READ_SCHEMAS } from '../../src/contract/reads.ts';
import { READS } from '../../src/client/reads.ts';

// The reads are the /api/v1 routes; /media/{token} is v1 too but only answers URLs the service signed itself.
const reads = PUBLIC_ROUTES.filter((r) => r.decl.surface === 'v1' && r.decl.path.startsWith('/api/v1/')).map(
  (r) => r.decl,
);
const entries = Object.entries(READS);
const contract: Record<string, { query: unknown; json?: unknown }> = READ_SCHEMAS;

describe('the typed client covers the route table', () => {
  test('every v1 route has one client method, on its own path', () => {
    const missing = reads.filter((d) => !entries.some(([, e]) => e.op === d.operationId));
    assert.deepEqual(
      missing.map((d) => `${d.operationId} ${d.path}`),
      [],
      'add a line to src/client/reads.ts and to READ_SCHEMAS in src/contract/reads.ts (docs/client.md#adding-a-read)',
    );
    for (const [name, e] of entries) {
      const d = reads.find((r) => r.operationId === e.op);
      assert.ok(d, `${name}: ${e.op} is not a v1 route`);
      assert.equal(e.path, d.path, name);
      assert.equal(entries.filter(([, o]) => o.op === e.op).length, 1, `${e.op} has one method`);
    }
  });

  test("each method's first argument is a path parameter of its route or one of its query parameters", () => {
    for (const [name, e] of entries) {
      const d = reads.find((r) => r.operationId === e.op)!;
      const inPath = Object.keys(d.params.shape);
      const inQuery = Object.keys(d.query.shape);
      assert.deepEqual(
        inPath,
        [...d.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
        `${name}: one path parameter at most`,
      );
      assert.ok(inPath.length <= 1, `${name}: the method takes one positional argument`);
      assert.ok(inPath.includes(e.arg) || (inPath.length === 0 && inQuery.includes(e.arg)), `${name}: ${e.arg}`);
    }
  });

  test('the contract hands the client the very schemas the routes validate and render with', () => {
    for (const d of reads) {
      const declared = contract[d.operationId];
      assert.ok(declared, `${d.operationId} is missing from READ_SCHEMAS`);
      assert.equal(declared.query, d.query, `${d.operationId}: query schema`);
      assert.equal(declared.json, d.json, `${d.operationId}: JSON body schema`);
    }
    assert.deepEqual(Object.keys(contract).sort(), reads.map((d) => d.operationId).sort());
  });

  test('paged methods name the member that holds each page, and the route pages with cursor', () => {
    for (const [name, e] of entries) {
      if (e.kind !== 'paged') continue;
      const d = reads.find((r) => r.operationId === e.op)!;
      assert.ok('cursor' in d.query.shape, `${name}: ${e.op} takes a cursor`);
      const json = d.json as { shape?: Record<string, unknown> } | undefined;
      assert.ok(json?.shape && e.items in json.shape && 'nextCursor' in json.shape, `${name}: ${e.items}`);
    }
  });

  test('the client imports no node: module (it runs in browsers, Deno and Bun)', () => {
    for (const file of readdirSync('src/client')) {
      const text = readFileSync(join('src/client', file), 'utf8');
      assert.doesNotMatch(text, /from ['"]node:|import\(['"]node:|\bprocess\.|\bBuffer\b/, file);
    }
  });
});
