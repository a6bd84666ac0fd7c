// Inspecting rendered HTML in tests: which elements and link targets a document produced.
import { markdownToHtml } from '../../../src/render/html.ts';

export function htmlOf(markdown: string): string {
  return markdownToHtml(markdown);
}

/** Every href/src attribute value in the HTML. */
export function targets(html: string): string[] {
  return [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => m[1]!);
}

/** Text content of every element of a tag, e.g. headings. */
export function texts(html: string, tag: string): string[] {
  return [...html.matchAll(new RegExp(`<${tag}[^>]*>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) =>
    m[1]!.replace(/<[^>]+>/g, ''),
  );
}

export function countTag(html: string, tag: string): number {
  return (html.match(new RegExp(`<${tag}[\\s>]`, 'g')) ?? []).length;
}
