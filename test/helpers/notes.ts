// What the vault tests share: a simulator and a scratch folder for in-process CLI runs, the notes a vault holds,
// and a note's front matter read by a YAML parser (as Obsidian reads it).
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { upstreamEnv } from './stack.ts';
import { runBin, type Run } from './cli-bin.ts';

/** The front matter every default note has, in order. */
export const DEFAULT_NOTE_FIELDS = ['id', 'url', 'author', 'author_name', 'created', 'thread_length', 'tags', 'source'];

export function frontMatter(note: string): Record<string, unknown> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(note);
  assert.ok(m, note.slice(0, 200));
  return parseYaml(m[1]!) as Record<string, unknown>;
}

export interface CliVaults {
  readonly dir: string;
  readonly sim: Simulator;
  /** The bin, in-process against the simulator, in the scratch folder. */
  run(args: string[]): Promise<Run>;
  /** The notes of a vault folder, sorted by name. */
  notes(vault: string): Array<{ name: string; body: string }>;
}

/** Registers before/after hooks: a simulator and a scratch folder for the file's tests. */
export function cliVaults(prefix: string): CliVaults {
  let dir = '';
  let sim: Simulator | undefined;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    get sim() {
      return sim!;
    },
    run: (args) =>
      runBin(args, {
        cwd: dir,
        env: { ...upstreamEnv(sim!), THREADMARK_KEYS_DB: join(dir, 'keys.db'), LOG_LEVEL: 'silent' },
        timeoutMs: 60_000,
      }),
    notes: (vault) =>
      readdirSync(join(dir, vault))
        .filter((n) => n.endsWith('.md'))
        .sort()
        .map((n) => ({ name: n, body: readFileSync(join(dir, vault, n), 'utf8') })),
  };
}
