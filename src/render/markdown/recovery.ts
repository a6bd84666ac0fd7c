// A 404 document for people and agents: what is missing, where to look next, and the URL shapes that work.
import { HANDLE_PATTERN } from '../../domain/handles.ts';
import { encodePart } from '../../domain/links.ts';
import { escapeLine } from './escape.ts';

const HANDLE_IN = new RegExp(`^@?(${HANDLE_PATTERN})(?:/status/([0-9]+))?$`);

const SHAPES: [string, string][] = [
  ['/{handle}', 'profile and its latest original posts'],
  ['/{handle}/status/{id}', 'a post with its thread and replies'],
  ['/{handle}/followers', 'accounts following the profile'],
  ['/{handle}/following', 'accounts the profile follows'],
  ['/search?q={terms}', 'search posts and accounts (`feed=latest|top|photos|videos|users`)'],
  ['/api/v1/posts?url={status-url}', 'the same post as JSON or Markdown'],
  ['/api/v1/profiles/{handle}', 'profile (also `/followers`, `/following`)'],
  ['/api/v1/search?q={terms}', 'search'],
  ['/api', 'machine-readable index of the API'],
];

/** A place to look next for what is missing: a title and an absolute link. */
export interface LookNext {
  title: string;
  href: string;
}

/**
 * Where to look next for a missing post or profile (its author's profile, accounts named like it): the links of
 * the recovery document, and the `see_also` of the problem document a request that names no document gets.
 */
export function lookNext(kind: 'profile' | 'post', what: string, baseUrl: string): LookNext[] {
  const handle = HANDLE_IN.exec(what.trim())?.[1];
  if (!handle) return [];
  return [
    ...(kind === 'post' ? [{ title: `The author's profile, @${handle}`, href: `${baseUrl}/${handle}` }] : []),
    { title: `Accounts named like ${handle}`, href: `${baseUrl}/search?q=${encodePart(handle)}&feed=users` },
  ];
}

export function renderRecoveryMarkdown(kind: 'profile' | 'post', what: string, baseUrl: string): string {
  const shown = escapeLine(what) || 'this page';
  const m = HANDLE_IN.exec(what.trim());
  const handle = m?.[1];
  const parts = [`# Not found: ${shown}`];
  parts.push(
    kind === 'profile'
      ? `The profile ${shown} could not be read. It may not exist, or it is suspended, protected or was renamed.`
      : `The post ${shown} could not be read. It may have been deleted, or its author is protected or suspended.`,
  );
  const next: string[] = [];
  if (kind === 'post' && handle) next.push(`- The author's profile: [@${handle}](${baseUrl}/${handle})`);
  if (handle)
    next.push(`- Search for accounts named like it: [${handle}](${baseUrl}/search?q=${encodePart(handle)}&feed=users)`);
  next.push('- Check the spelling: handles are 1-15 letters, digits or `_`, without `@`; status ids are digits only.');
  next.push(
    `- The original on the platform, if it is public: ${kind === 'profile' && handle ? `<https://x.com/${handle}>` : 'open the status URL on x.com'}`,
  );
  parts.push('## Where to look next', next.join('\n'));
  parts.push('## Valid URL shapes', SHAPES.map(([path, about]) => `- \`${path}\` — ${about}`).join('\n'));
  parts.push(`Base: <${baseUrl}> · Documentation: <${baseUrl}/docs>`);
  return parts.join('\n\n') + '\n';
}
