// Writes notes into an Obsidian vault folder: names safe on every OS and inside Obsidian links, and an
// existing note is never replaced: identical content is left alone, different content gets `name (2).md`.
import { lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CliError, EXIT } from './exit.ts';
import { DEFAULT_NOTE_NAME, noteFileName, safeFileName, type NamedPost } from '../render/note-template.ts';

export { MAX_NAME_BYTES, safeFileName } from '../render/note-template.ts';

/** How many numbered variants are tried before giving up. */
export const MAX_VARIANTS = 99;

export type NotePost = NamedPost;

/**
 * The note's file name from a template (`{handle}`, `{id}`, `{date}`, `{title}`); the default,
 * `<handle> <id> <first words>`, keeps names unique and stable, so a re-run finds its own notes.
 */
export function noteName(post: NotePost, template = DEFAULT_NOTE_NAME): string {
  return noteFileName(post, template);
}

export interface Note {
  /** Stem from noteName or safeFileName; sanitised again here. */
  name: string;
  body: string;
}

export type NoteAction = 'written' | 'unchanged' | 'renamed';

export interface NoteResult {
  path: string;
  action: NoteAction;
}

function candidate(stem: string, n: number): string {
  return n === 1 ? `${stem}.md` : `${stem} (${n}).md`;
}

/** Same bytes as an existing regular file? Symlinks, folders and the like count as different. */
function sameNote(path: string, body: string): boolean | undefined {
  let st;
  try {
    st = lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  return st.isFile() && readFileSync(path, 'utf8') === body;
}

export function writeNote(dir: string, note: Note): NoteResult {
  const root = resolve(dir);
  mkdirSync(root, { recursive: true });
  const stem = safeFileName(note.name);
  for (let n = 1; n <= MAX_VARIANTS; n++) {
    const path = join(root, candidate(stem, n));
    if (dirname(path) !== root) throw new CliError('vault_path', `refusing to write outside ${root}`, EXIT.failure);
    const same = sameNote(path, note.body);
    if (same === true) return { path, action: 'unchanged' };
    if (same === false) continue;
    try {
      // wx: never follow or replace whatever appeared since the check.
      writeFileSync(path, note.body, { encoding: 'utf8', flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw new CliError('vault_write', `cannot write ${path}: ${(e as Error).message}`, EXIT.failure);
    }
    return { path, action: n === 1 ? 'written' : 'renamed' };
  }
  throw new CliError(
    'vault_conflict',
    `${candidate(stem, 1)} and ${MAX_VARIANTS - 1} numbered variants already hold different notes in ${root}`,
    EXIT.failure,
  );
}
