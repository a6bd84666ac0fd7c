// Build tools are dev dependencies (production runs the bundle); npm's allowScripts decides every install script of
// the lockfile, approving only the one the service needs; no locked package refuses a supported Node line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const root = new URL('../../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean; engines?: { node?: string } }>;
};
const readme = readFileSync(new URL('README.md', root), 'utf8');
const deployment = readFileSync(new URL('docs/deployment.md', root), 'utf8');

/** `node_modules/a/node_modules/@b/c` → `@b/c`. */
function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

test('tsx and esbuild are dev dependencies only', () => {
  for (const tool of ['tsx', 'esbuild']) {
    assert.equal(pkg.dependencies[tool], undefined, `${tool} is not a runtime dependency`);
    assert.ok(pkg.devDependencies[tool], `${tool} is a dev dependency`);
  }
});

test('allowScripts decides every install script of the lockfile: better-sqlite3 runs, esbuild does not', () => {
  const withScripts = Object.entries(lock.packages)
    .filter(([path, p]) => path && p.hasInstallScript)
    .map(([path]) => nameOf(path))
    .sort();
  const decided = Object.keys(pkg.allowScripts ?? {}).map((k) => k.replace(/(.)@.*$/, '$1'));
  assert.deepEqual([...new Set(decided)].sort(), withScripts, 'one allowScripts entry per package with a script');
  assert.equal(pkg.allowScripts?.['better-sqlite3'], true, 'the key store needs its native binding');
  assert.equal(pkg.allowScripts?.esbuild, false, 'esbuild runs from its optional platform package');
  assert.match(readme, /allowScripts[\s\S]*better-sqlite3[\s\S]*esbuild/);
  assert.match(deployment, /allowScripts[\s\S]*better-sqlite3[\s\S]*esbuild/);
});

test('no locked package requires a Node newer than the oldest line package.json supports', () => {
  const oldest = Number(/^\^?(\d+)/.exec(pkg.engines.node)?.[1]);
  assert.ok(oldest >= 20, pkg.engines.node);
  for (const [path, p] of Object.entries(lock.packages)) {
    const floor = /^\s*>=\s*v?(\d+)/.exec(p.engines?.node ?? '')?.[1];
    if (path && floor !== undefined) assert.ok(Number(floor) <= oldest, `${path} requires node ${p.engines?.node}`);
  }
});

test('package.json engines and the README name the same supported Node lines', () => {
  for (const line of ['20', '22', '24']) assert.match(pkg.engines.node, new RegExp(`\\^?${line}\\.|>=${line}`));
  assert.match(readme, /Node 22 or 24[\s\S]*Node 20\.19/);
});
