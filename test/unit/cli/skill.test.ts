// skills/threadmark/SKILL.md stays in step with the CLI, the MCP tools and the exit codes: everything the command
// offers is named there, and everything it names exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { buildProgram } from '../../../src/cli/program.ts';
import { EXIT } from '../../../src/cli/exit.ts';
import { PUBLIC_ROUTES } from '../../../src/route-table.ts';

const SKILL = readFileSync(new URL('../../../skills/threadmark/SKILL.md', import.meta.url), 'utf8');
const io = { stdout: { write: () => true }, stderr: { write: () => true }, env: {} };
const program = buildProgram(io, () => {});
const commands = new Map(program.commands.map((c) => [c.name(), c]));

test('front matter: name and description', () => {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(SKILL);
  assert.ok(m, 'YAML front matter');
  const meta = parseYaml(m[1]!) as { name?: string; description?: string };
  assert.equal(meta.name, 'threadmark');
  assert.ok((meta.description ?? '').length > 60);
  assert.ok((meta.description ?? '').length <= 1024);
});

test('every command, and every option of the reading commands, is named', () => {
  for (const [name, cmd] of commands) {
    assert.ok(SKILL.includes(`threadmark ${name}`), `threadmark ${name}`);
    // Operator commands are named; their options are for operators, not agents.
    if (['keys', 'serve', 'x-operations'].includes(name)) continue;
    for (const o of cmd.options) assert.ok(SKILL.includes(o.long!), `${name} ${o.long}`);
  }
});

test('every command and option the skill names exists', () => {
  for (const [, name] of SKILL.matchAll(/`threadmark ([a-z][a-z-]*)/g))
    assert.ok(commands.has(name!), `threadmark ${name}`);
  const known = new Set(program.commands.flatMap((c) => c.options.map((o) => o.long!)));
  for (const [flag] of SKILL.matchAll(/--[a-z][a-z-]+/g)) assert.ok(known.has(flag), flag);
});

test('every MCP tool and its route is named, and every exit code explained', () => {
  for (const { decl } of PUBLIC_ROUTES) {
    if (!decl.mcpTool) continue;
    assert.ok(SKILL.includes(`\`${decl.mcpTool}\``), decl.mcpTool);
    assert.ok(SKILL.includes(decl.path.replace('{handle}', '{handle}')), decl.path);
  }
  for (const code of Object.values(EXIT)) assert.match(SKILL, new RegExp(`^\\| ${code} \\|`, 'm'), `exit ${code}`);
  for (const p of [
    'budget',
    'since_id',
    'nextCursor',
    'invalid_budget',
    'invalid_since_id',
    'rate_limited',
    'not_found',
  ]) {
    assert.ok(SKILL.includes(p), p);
  }
});
