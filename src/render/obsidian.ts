// Obsidian note for a post/thread: YAML front matter, then the same document as the Markdown renderer in the
// Obsidian dialect ([[@handle]] wiki links for people, native #tags, Obsidian-only syntax escaped).
// Media stay standard `![alt](https://…)` embeds: `![[…]]` only resolves files inside the vault, while
// Obsidian renders remote images from the standard syntax, so notes work without downloading anything.
import type { Post } from '../domain/models.ts';
import type { PostRead } from '../domain/reads.ts';
import { obsidianDialectFor, obsidianTag } from './markdown/dialect.ts';
import { isoTime } from './markdown/format.ts';
import { permalinkOf } from './markdown/post.ts';
import { renderPostDocument, type PostDocumentOptions } from './markdown/thread.ts';
import { metricLines, type FrontMatterOptions } from './note-template.ts';

/**
 * A YAML double-quoted scalar. JSON string syntax is a subset of YAML's double-quoted style; the characters
 * YAML additionally forbids raw (DEL, C1 controls, line/paragraph separators, BOM) and lone surrogates are
 * escaped or replaced so any parser reads back exactly the input.
 */
export function yamlString(s: string): string {
  const wellFormed = s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
  return JSON.stringify(wellFormed).replace(
    /[\u007f-\u009f\u2028\u2029\ufeff]/g,
    (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'),
  );
}

function tagsOf(posts: Post[], extra: string[] = []): string[] {
  const seen = new Map<string, string>();
  const add = (tag: string) => {
    const t = obsidianTag(tag);
    if (t && !seen.has(t.toLowerCase())) seen.set(t.toLowerCase(), t);
  };
  for (const p of posts) for (const s of p.segments) if (s.type === 'hashtag') add(s.tag);
  extra.forEach(add);
  return [...seen.values()];
}

const yamlList = (key: string, items: string[]) =>
  items.length > 0 ? `${key}:\n${items.map((t) => `  - ${yamlString(t)}`).join('\n')}` : `${key}: []`;

/** The fields a template adds after the default ones. */
function extraFields(p: Post, fm: FrontMatterOptions): string[] {
  return [
    ...(fm.metrics ? metricLines(p.metrics) : []),
    ...(fm.cssclasses?.length ? [yamlList('cssclasses', fm.cssclasses)] : []),
    ...(fm.fetched ? [`fetched: ${yamlString(fm.fetched)}`] : []),
    ...(fm.fields ?? []).map(([k, v]) => `${k}: ${yamlString(v)}`),
  ];
}

/** Where a post stands in its thread, for a note that holds one post of a longer thread. */
export interface ThreadPart {
  /** Note name of the thread's first post, for the wiki link. */
  first: string;
  /** 1-based. */
  position: number;
  length: number;
  /** The whole thread's read. */
  url: string;
}

/**
 * With `part`, the note is one post of a longer thread: it says which, and links the thread's first note. `fm`
 * adds front matter fields (a template's); without it the note is the default one.
 */
export function renderPostObsidian(
  read: PostRead,
  opts: PostDocumentOptions,
  part?: ThreadPart,
  extra: FrontMatterOptions = {},
): string {
  const p = read.requested;
  const chain = read.thread.length > 0 ? read.thread : [p];
  const tags = tagsOf(chain, extra.tags);
  const link = part && `[[${part.first}]]`;
  const fm = [
    '---',
    `id: ${yamlString(p.id)}`,
    `url: ${yamlString(permalinkOf(p))}`,
    `author: ${yamlString(p.author.handle)}`,
    `author_name: ${yamlString(p.author.name)}`,
    `created: ${yamlString(isoTime(p.createdAt))}`,
    `thread_length: ${part?.length ?? chain.length}`,
    ...(part && link ? [`thread: ${yamlString(link)}`, `thread_position: ${part.position}`] : []),
    yamlList('tags', tags),
    `source: ${yamlString(read.source)}`,
    ...extraFields(p, extra),
    '---',
  ];
  const doc = renderPostDocument(read, opts, obsidianDialectFor(opts.baseUrl), 'flat');
  if (!part || !link) return fm.join('\n') + '\n\n' + doc;
  // Under the title: which part of the thread this is, the thread's first note and its whole read.
  const cut = doc.indexOf('\n\n');
  const where = `Part ${part.position} of ${part.length} of the thread ${link} · [Read the whole thread](${part.url})`;
  return fm.join('\n') + '\n\n' + doc.slice(0, cut) + '\n\n' + where + doc.slice(cut);
}
