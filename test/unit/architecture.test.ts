// The layering rules of src/, checked on every run so nobody reintroduces a cycle or an upward import.
// Imports are read with TypeScript's own pre-processor (already a dev dependency): it sees every form the
// compiler sees, including `import type`, `export ... from` and dynamic `import()`, and skips comments and
// strings. Type-only and dynamic imports count as edges, so neither can be used to dodge a cycle.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';

const SRC = 'src';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Module graph of src/: file → the src files it imports (relative specifiers only; packages are not ours). */
export function importGraph(files: string[], read: (file: string) => string): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(read(file), true, true);
    const deps = info.importedFiles
      .map((ref) => ref.fileName)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => normalize(join(dirname(file), spec)))
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(deps)]);
  }
  return graph;
}

/** Every cycle as one of its strongly connected components (Tarjan), each listed in a stable order. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    const selfLoop = (graph.get(v) ?? []).includes(v);
    if (component.length > 1 || selfLoop) found.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/**
 * The unit a layer rule speaks of: the first folder under src/, or for a file directly in src/ (the composition
 * root, config, version) the file itself, so each of those is a node of its own in the folder graph.
 */
export function layerOf(file: string): string {
  return relative(SRC, file).split(sep)[0]!;
}

/**
 * What each layer may import besides itself: every folder of src/ and every file directly in it has a rule, and a
 * layer without one fails the test, so a new folder states its place when it is added. The domain is the centre and
 * imports nothing outside itself; problems is the catalog the edge maps to, and only the edge builds problem
 * documents (see the test below), so stores and providers know no problem at all; renderers are pure functions of
 * domain models; providers turn upstream shapes into domain models and raise only their typed failures or a
 * configuration error; net, the one outbound HTTP client, knows none of its users. The contract (route and JSON
 * schemas, the read table, what a handler receives) sits below everything that uses it: http, surface, MCP and the
 * published client import it, it imports none of them. Only the composition root (compose.ts, server.ts,
 * route-table.ts) imports http/; common/, net/, engines.ts and packaged-docs.ts import nothing.
 */
export const ALLOWED: Record<string, string[]> = {
  domain: [],
  problems: [],
  common: [],
  'config-error.ts': [],
  'version.ts': [],
  'guides.ts': [],
  'engines.ts': [],
  'packaged-docs.ts': [],
  render: ['domain'],
  net: [],
  secrets: ['domain'],
  providers: ['domain', 'common', 'net', 'config-error.ts', 'engines.ts'],
  media: ['domain', 'net', 'render'],
  stores: ['domain', 'common', 'providers', 'secrets', 'engines.ts'],
  sources: ['domain', 'media', 'problems', 'providers', 'stores'],
  ops: ['providers', 'stores'],
  jobs: ['domain', 'net', 'stores', 'engines.ts'],
  'config.ts': ['config-error.ts', 'media', 'providers', 'version.ts'],
  contract: ['domain', 'problems', 'render', 'media', 'config.ts', 'ops', 'providers', 'sources', 'stores'],
  client: ['contract', 'problems'],
  surface: ['contract', 'domain', 'guides.ts', 'problems', 'providers', 'render', 'sources', 'stores'],
  mcp: ['surface'],
  http: [
    'contract',
    'engines.ts',
    'domain',
    'jobs',
    'mcp',
    'media',
    'ops',
    'problems',
    'providers',
    'render',
    'sources',
    'stores',
    'surface',
  ],
  'route-table.ts': ['contract', 'http', 'surface'],
  'server.ts': ['contract', 'http', 'jobs', 'problems', 'route-table.ts'],
  'compose.ts': [
    'config.ts',
    'contract',
    'domain',
    'http',
    'jobs',
    'media',
    'ops',
    'providers',
    'secrets',
    'server.ts',
    'sources',
    'stores',
    'version.ts',
  ],
  'main.ts': ['compose.ts', 'config.ts', 'ops'],
  cli: [
    'client',
    'compose.ts',
    'config.ts',
    'domain',
    'main.ts',
    'mcp',
    'media',
    'packaged-docs.ts',
    'providers',
    'render',
    'route-table.ts',
    'stores',
    'surface',
    'version.ts',
  ],
};

/** Every import a layer's rule does not allow, and every layer (folder or root file) that has no rule. */
export function layerViolations(graph: Map<string, string[]>, rules: Record<string, string[]> = ALLOWED): string[] {
  const out: string[] = [];
  const unruled = new Set<string>();
  for (const [file, deps] of graph) {
    const from = layerOf(file);
    const allowed = rules[from];
    if (!allowed) unruled.add(from);
    for (const dep of deps) {
      const to = layerOf(dep);
      if (to === from) continue;
      if (!allowed?.includes(to)) out.push(`${file} → ${dep}`);
    }
  }
  return [...[...unruled].sort().map((layer) => `${layer}: no rule`), ...out];
}

/** The graph of layers: an edge wherever one file of a layer imports a file of another. */
export function layerGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const layers = new Map<string, Set<string>>();
  for (const [file, deps] of graph) {
    const from = layerOf(file);
    const edges = layers.get(from) ?? new Set<string>();
    for (const dep of deps) if (layerOf(dep) !== from) edges.add(layerOf(dep));
    layers.set(from, edges);
  }
  return new Map([...layers].map(([layer, edges]) => [layer, [...edges].sort()]));
}

describe('architecture of src/', () => {
  const files = sources(SRC);
  const graph = importGraph(files, (f) => readFileSync(f, 'utf8'));

  test('the scanner sees every import form (so the rules below cannot be dodged)', () => {
    const fake = new Map([
      ['src/a.ts', "import type { B } from './b.ts';\nexport { c } from './c.ts';\n// import './d.ts'\n"],
      ['src/b.ts', "const later = () => import('./a.ts');\nconst s = \"import './d.ts'\";\n"],
      ['src/c.ts', "import {\n  x,\n} from './b.ts';\nimport 'node:fs';\n"],
      ['src/d.ts', ''],
    ]);
    const g = importGraph([...fake.keys()], (f) => fake.get(f)!);
    assert.deepEqual(g.get('src/a.ts'), ['src/b.ts', 'src/c.ts']);
    assert.deepEqual(g.get('src/b.ts'), ['src/a.ts']);
    assert.deepEqual(g.get('src/c.ts'), ['src/b.ts']);
    assert.deepEqual(cycles(g), [['src/a.ts', 'src/b.ts', 'src/c.ts']]);
  });

  test('the folder graph sees a cycle no file cycle shows, and the layer rules see every import of a layer', () => {
    const fake = new Map([
      [join('src', 'x', 'a.ts'), ['src/y/b.ts'].map(normalize)],
      [join('src', 'y', 'b.ts'), []],
      [join('src', 'y', 'c.ts'), ['src/x/d.ts'].map(normalize)],
      [join('src', 'x', 'd.ts'), ['src/http/e.ts'].map(normalize)],
      [join('src', 'domain', 'f.ts'), ['src/problems/g.ts'].map(normalize)],
      [join('src', 'compose.ts'), ['src/http/e.ts'].map(normalize)],
    ]);
    assert.deepEqual(cycles(fake), []);
    assert.deepEqual(cycles(layerGraph(fake)), [['x', 'y']]);
    const rules = { x: ['y', 'http'], y: ['x'], domain: [], 'compose.ts': ['http'] };
    assert.deepEqual(layerViolations(fake, rules), [
      `${join('src', 'domain', 'f.ts')} → ${join('src', 'problems', 'g.ts')}`,
    ]);
    const { 'compose.ts': _root, ...unruledRoot } = rules;
    assert.deepEqual(layerViolations(fake, { ...unruledRoot, x: ['y'] }), [
      'compose.ts: no rule',
      `${join('src', 'x', 'd.ts')} → ${join('src', 'http', 'e.ts')}`,
      `${join('src', 'domain', 'f.ts')} → ${join('src', 'problems', 'g.ts')}`,
      `${join('src', 'compose.ts')} → ${join('src', 'http', 'e.ts')}`,
    ]);
  });

  test('src/ has no import cycles (type-only and dynamic imports included)', () => {
    assert.ok(graph.size > 100, `scanned ${graph.size} files`);
    assert.deepEqual(cycles(graph), []);
  });

  test('no cycle between folders either (each file directly in src/ counts as a folder of its own)', () => {
    assert.deepEqual(cycles(layerGraph(graph)), []);
  });

  test('every folder and root file of src/ has a rule, and every import keeps to it', () => {
    assert.deepEqual(layerViolations(graph), []);
  });

  test('the rules themselves: the domain and the catalog import nothing, and only the composition root imports http', () => {
    assert.deepEqual(ALLOWED.domain, []);
    assert.deepEqual(ALLOWED.problems, []);
    const intoHttp = Object.keys(ALLOWED).filter((layer) => ALLOWED[layer]!.includes('http'));
    assert.deepEqual(intoHttp.sort(), ['compose.ts', 'route-table.ts', 'server.ts']);
    for (const user of ['http', 'surface', 'mcp', 'client']) assert.ok(!ALLOWED.contract!.includes(user), user);
  });

  test('problem documents are made at the edge only: no Problem is built outside src/http/ and src/problems/', () => {
    const edge = [join(SRC, 'http') + sep, join(SRC, 'problems') + sep];
    const makers = files.filter(
      (f) => !edge.some((d) => f.startsWith(d)) && /\bnew Problem\(/.test(readFileSync(f, 'utf8')),
    );
    assert.deepEqual(makers, []);
  });

  test('the route table is read only by the entry points (HTTP server, stdio MCP), which hand it to the surface', () => {
    const readers = [...graph].filter(([, deps]) => deps.includes(join(SRC, 'route-table.ts'))).map(([f]) => f);
    assert.deepEqual(readers.sort(), [join(SRC, 'cli', 'mcp.ts'), join(SRC, 'server.ts')]);
  });
});
