// Note template flags of `read --out` and `export --vault`: the file-name template and the front matter fields.
import type { Command } from 'commander';
import {
  DEFAULT_NOTE_NAME,
  frontMatterProblem,
  nameTemplateProblem,
  type FrontMatterOptions,
} from '../render/note-template.ts';
import { CliError, EXIT } from './exit.ts';

export interface NoteFlags {
  noteName?: string;
  noteMetrics?: boolean;
  noteTag?: string[];
  noteCssclass?: string[];
  noteFetched?: boolean;
  noteField?: string[];
}

export interface NoteTemplate {
  name: string;
  /** Front matter without the fetched time, which each note gets when it is written. */
  frontMatter: FrontMatterOptions;
  fetched: boolean;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The flags on a command; `target` names the flag they go with. */
export function withNoteOptions(cmd: Command, target: string): Command {
  return cmd
    .option(
      '--note-name <template>',
      `with ${target}: note file names from {handle} {id} {date} {title} (default "${DEFAULT_NOTE_NAME}")`,
    )
    .option('--note-metrics', `with ${target}: the post's counts in the front matter`)
    .option('--note-tag <tag>', `with ${target}: a tag added to the front matter (repeatable)`, collect)
    .option('--note-cssclass <class>', `with ${target}: an Obsidian cssclasses entry (repeatable)`, collect)
    .option('--note-fetched', `with ${target}: the time the note was fetched, as "fetched"`)
    .option('--note-field <key=value>', `with ${target}: a fixed front matter field (repeatable)`, collect);
}

const badTemplate = (detail: string) => new CliError('invalid_note_template', detail, EXIT.usage);

/** The template the flags ask for, checked before any connection is opened; undefined when `hasTarget` is false. */
export function noteTemplate(flags: NoteFlags, hasTarget: boolean, target: string): NoteTemplate | undefined {
  const given =
    flags.noteName !== undefined ||
    flags.noteMetrics ||
    flags.noteFetched ||
    !!flags.noteTag?.length ||
    !!flags.noteCssclass?.length ||
    !!flags.noteField?.length;
  if (given && !hasTarget) throw new CliError('usage', `--note-* options need ${target}`, EXIT.usage);
  if (!hasTarget) return undefined;
  const name = flags.noteName ?? DEFAULT_NOTE_NAME;
  const nameProblem = nameTemplateProblem(name);
  if (nameProblem) throw badTemplate(`--note-name: ${nameProblem}`);
  const fields = (flags.noteField ?? []).map((pair): [string, string] => {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw badTemplate(`--note-field takes key=value (got ${JSON.stringify(pair)})`);
    return [pair.slice(0, eq).trim(), pair.slice(eq + 1)];
  });
  const frontMatter: FrontMatterOptions = {
    ...(flags.noteMetrics ? { metrics: true } : {}),
    ...(flags.noteTag?.length ? { tags: flags.noteTag } : {}),
    ...(flags.noteCssclass?.length ? { cssclasses: flags.noteCssclass } : {}),
    ...(fields.length ? { fields } : {}),
  };
  const problem = frontMatterProblem(frontMatter);
  if (problem) throw badTemplate(problem);
  return { name, frontMatter, fetched: !!flags.noteFetched };
}
