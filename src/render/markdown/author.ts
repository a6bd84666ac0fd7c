// One-line author summaries (userinfo blocks, participant lists, connection and search-user lines).
import type { Author } from '../../domain/models.ts';
import type { Dialect } from './dialect.ts';
import { urlLink } from './escape.ts';
import { count, formatDate, truncate } from './format.ts';
import { renderSegmentsLine } from './segments.ts';

/** `**Name** (@handle)`; the handle is shown as text, the name escaped. */
export function byline(a: Author, d: Dialect): string {
  return `**${d.text(oneLineName(a), false)}** (${handleRef(a, d)})`;
}

function oneLineName(a: Author): string {
  return a.name.replace(/\s+/g, ' ').trim() || a.handle;
}

/** `@handle` in the dialect's own way of referring to a person. */
function handleRef(a: Author, d: Dialect): string {
  return d.person(a.handle);
}

/** Plain `Name (@handle)` for headings and titles. */
export function plainByline(a: Author, d: Dialect): string {
  return `${d.text(oneLineName(a), false)} (${handleRef(a, d)})`;
}

/** The bio on one line: facets when the upstream gave them, else escaped text; optionally shortened. */
export function bioLine(a: Author, d: Dialect, max?: number): string {
  if (max !== undefined) return a.bio ? d.text(truncate(a.bio.replace(/\s+/g, ' ').trim(), max), false) : '';
  if (a.bioSegments && a.bioSegments.length > 0) return renderSegmentsLine(a.bioSegments, d);
  return a.bio ? d.text(a.bio.replace(/\s+/g, ' ').trim(), false) : '';
}

/** Counts and details shown only in the expanded representation, or undefined when there are none. */
export function authorDetails(a: Author, d: Dialect): string | undefined {
  const bits: string[] = [];
  if (a.following !== undefined) bits.push(`${a.following} following`);
  if (a.posts !== undefined) bits.push(count(a.posts, 'post'));
  if (a.likes !== undefined) bits.push(count(a.likes, 'like'));
  if (a.mediaCount !== undefined) bits.push(`${a.mediaCount} media`);
  if (a.joined) bits.push(`joined ${formatDate(a.joined)}`);
  if (a.location) bits.push(`location: ${d.text(a.location.replace(/\s+/g, ' ').trim(), false)}`);
  if (a.website) bits.push(`website: ${urlLink(a.website)}`);
  if (a.verified) bits.push('verified');
  if (a.protected) bits.push('protected');
  return bits.length > 0 ? bits.join(' · ') : undefined;
}

/** `**Name** (@h) · bio · 45 followers` — the compact summary line. */
export function authorSummary(a: Author, d: Dialect): string {
  const bits = [byline(a, d)];
  const bio = bioLine(a, d);
  if (bio) bits.push(bio);
  if (a.followers !== undefined) bits.push(count(a.followers, 'follower'));
  return bits.join(' · ');
}
