// A post's translation, shown under its original text: the label names the source language, the target, the
// translating service and the provider that passed it on, so nobody mistakes it for the author's own words.
import { languageName } from '../../domain/language.ts';
import type { Translation } from '../../domain/models.ts';
import type { Dialect } from './dialect.ts';
import { escapeLine } from './escape.ts';
import { renderText, segmentLines } from './segments.ts';

/** `Translated from Japanese (ja → en) by Grok via fxtwitter` */
export function translationLabel(t: Translation): string {
  const from = t.from === 'und' ? 'an undetected language' : `${languageName(t.from)}`;
  return escapeLine(`Translated from ${from} (${t.from} → ${t.to}) by ${t.service} via ${t.provider}`);
}

/** The translation as its own paragraph of a post block. */
export function translationPart(t: Translation, d: Dialect): string {
  return `**${translationLabel(t)}:** ${renderText(t.text, d, false)}`;
}

/** The translation as lines of a reply's list item (joined with hard breaks by the caller). */
export function translationLines(t: Translation, d: Dialect): string[] {
  const lines = segmentLines([{ type: 'text', text: t.text }], d, false).filter((l) => l !== '');
  if (lines.length === 0) return [];
  lines[0] = `*${translationLabel(t)}:* ${lines[0]}`;
  return lines;
}
