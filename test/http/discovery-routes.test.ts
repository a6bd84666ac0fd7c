// Every mounted route is declared (and so documented) and every declaration is mounted: walks Fastify's own route
// tree, so a route added around the declarations fails here.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack } from '../helpers/stack.ts';
import { PUBLIC_ROUTES } from '../../src/route-table.ts';
import { fastifyPath } from '../../src/contract/route-decl.ts';

/** Routes that are deliberately not public route declarations. */
// The push routes (keyed POST/DELETE and the WebSub hub) are described in OpenAPI by surface/push-openapi.ts.
const NOT_DECLARED = [
  /^\/mcp$/,
  /^\/api\/v1\/(watches|watches\/:id|hub)$/,
  /^\/admin(\/|$)/,
  /^\/(healthz|readyz|metrics)$/,
  // The one route of every method the reads do not take (http/routing/method-fallback.ts).
  /^\*$/,
];

let s: Stack;
before(async () => {
  s = await startStack();
});
after(() => s.close());

/** printRoutes({ commonPrefix: false }) draws a tree; each line is a segment under its parent, 4 columns a level. */
function mountedPaths(tree: string): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)[├└]── (.+?)(?: \(([^)]*)\))?$/.exec(line.trimEnd());
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + m[2]!;
    stack[depth] = path;
    // A segment without methods is only a shared prefix of the routes below it.
    if (m[3] !== undefined) out.push(path);
  }
  return out;
}

test('the route tree parser reads nested segments', () => {
  const tree = [
    '├── /api (GET)',
    '│   ├── /v1/posts (GET)',
    '│   ├── /v2/',
    '│   │   └── x (GET)',
    '│   └── /v1/x/:handle (GET)',
    '│       └── /followers (GET)',
    '└── /:handle (GET)',
    '    └── /status/:id (GET)',
  ].join('\n');
  assert.deepEqual(mountedPaths(tree), [
    '/api',
    '/api/v1/posts',
    '/api/v2/x',
    '/api/v1/x/:handle',
    '/api/v1/x/:handle/followers',
    '/:handle',
    '/:handle/status/:id',
  ]);
});

test('mounted routes and route declarations match one to one', () => {
  const mounted = new Set(mountedPaths(s.app.server.printRoutes({ commonPrefix: false })));
  assert.ok(mounted.size > 10, 'the tree was read');
  const declared = new Set(PUBLIC_ROUTES.map((r) => fastifyPath(r.decl.path)));
  const undeclared = [...mounted].filter((p) => !declared.has(p) && !NOT_DECLARED.some((re) => re.test(p)));
  assert.deepEqual(undeclared, [], 'routes mounted without a declaration');
  const unmounted = [...declared].filter((p) => !mounted.has(p));
  assert.deepEqual(unmounted, [], 'declarations that are not mounted');
  assert.ok(mounted.has('/mcp'));
});

test('declarations are complete: unique operationIds, a summary, and known error codes', async () => {
  const { CATALOG } = await import('../../src/problems/catalog.ts');
  const ids = PUBLIC_ROUTES.map((r) => r.decl.operationId);
  assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
  const tools = PUBLIC_ROUTES.flatMap((r) => (r.decl.mcpTool ? [r.decl.mcpTool] : []));
  assert.equal(new Set(tools).size, tools.length, 'MCP tool names are unique');
  for (const { decl } of PUBLIC_ROUTES) {
    assert.ok(decl.summary && decl.description, decl.path);
    for (const code of decl.errors) assert.ok(code in CATALOG, `${decl.path}: unknown error code ${code}`);
  }
});
