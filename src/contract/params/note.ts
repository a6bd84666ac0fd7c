// Front matter parameters of the Obsidian representation: a note template over HTTP. The file-name template is
// the CLI's alone (a response has no file name).
import { z } from 'zod';
import { frontMatterProblem, type FrontMatterOptions } from '../../render/note-template.ts';
import { code, flag } from './common.ts';

const MAX_PARAM = 2000;

const commaList = z
  .string(code('invalid_note_template'))
  .max(MAX_PARAM, code('invalid_note_template'))
  .transform((v) =>
    v
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );

function checked<T extends keyof FrontMatterOptions>(key: T) {
  return (value: FrontMatterOptions[T], ctx: z.RefinementCtx) => {
    if (frontMatterProblem({ [key]: value })) ctx.addIssue({ code: 'custom', message: 'invalid_note_template' });
  };
}

export const noteShape = {
  note_metrics: flag.describe(
    "With format=obsidian: the post's counts (likes, reposts, replies, quotes, views, bookmarks) in the front matter.",
  ),
  note_tags: commaList
    .superRefine(checked('tags'))
    .optional()
    .describe("With format=obsidian: comma-separated tags added to the post's own hashtags in `tags`."),
  note_cssclasses: commaList
    .superRefine(checked('cssclasses'))
    .optional()
    .describe("With format=obsidian: comma-separated CSS classes, as Obsidian's `cssclasses` list."),
  note_fetched: flag.describe('With format=obsidian: `fetched`, the time the note was rendered.'),
  note_fields: commaList
    .transform((pairs, ctx): Array<[string, string]> => {
      const out: Array<[string, string]> = [];
      for (const pair of pairs) {
        const eq = pair.indexOf('=');
        if (eq <= 0) {
          ctx.addIssue({ code: 'custom', message: 'invalid_note_template' });
          return z.NEVER;
        }
        out.push([pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()]);
      }
      return out;
    })
    .superRefine(checked('fields'))
    .optional()
    .describe(
      'With format=obsidian: fixed front matter fields, comma-separated key=value pairs (values without commas).',
    ),
};

export type NoteQuery = { [K in keyof typeof noteShape]?: z.output<(typeof noteShape)[K]> };

/** The front matter a request asks for (empty for none); `now` is the render time for note_fetched. */
export function frontMatterOf(q: NoteQuery, now: () => string): FrontMatterOptions {
  const out: FrontMatterOptions = {};
  if (q.note_metrics) out.metrics = true;
  if (q.note_tags?.length) out.tags = q.note_tags;
  if (q.note_cssclasses?.length) out.cssclasses = q.note_cssclasses;
  if (q.note_fetched) out.fetched = now();
  if (q.note_fields?.length) out.fields = q.note_fields;
  return out;
}

/** Parameter names the MCP tool leaves out: they shape only the Obsidian note, which the tool does not return. */
export const NOTE_PARAMS = Object.keys(noteShape);
