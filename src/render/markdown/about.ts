// Account facts ("About this account"): one line per fact, a fact the upstream did not give said to be unknown.
import type { AboutFact, AboutRead } from '../../domain/about.ts';
import type { RenderContext } from '../../domain/reads.ts';
import { xProfileUrl } from './dialect.ts';
import { escapeLine, link } from './escape.ts';
import { formatDate } from './format.ts';
import { serviceProfileUrl } from './list.ts';

const LABELS: Record<AboutFact, string> = {
  basedIn: 'Based in',
  connectedVia: 'Connected via',
  joined: 'Joined',
  verified: 'Verified',
  verifiedSince: 'Verified since',
  usernameChanges: 'Username changes',
  lastUsernameChange: 'Last username change',
  affiliate: 'Affiliate badge',
};

function stated(read: AboutRead, fact: AboutFact): string | undefined {
  const f = read.facts;
  switch (fact) {
    case 'basedIn':
      return f.basedIn === undefined
        ? undefined
        : `${escapeLine(f.basedIn)}${f.basedInAccurate === false ? ' (X says this may not be accurate)' : ''}`;
    case 'connectedVia':
      return f.connectedVia === undefined ? undefined : escapeLine(f.connectedVia);
    case 'joined':
      return f.joined === undefined ? undefined : formatDate(f.joined);
    case 'verified':
      if (f.verified === undefined) return undefined;
      if (!f.verified) return 'no';
      return `yes${f.verifiedType ? ` (${escapeLine(f.verifiedType)})` : ''}${f.identityVerified ? ', identity verified' : ''}`;
    case 'verifiedSince':
      return f.verifiedSince === undefined
        ? f.verified === false
          ? 'not verified'
          : undefined
        : formatDate(f.verifiedSince);
    case 'usernameChanges':
      return f.usernameChanges === undefined ? undefined : String(f.usernameChanges);
    case 'lastUsernameChange':
      return f.lastUsernameChange === undefined
        ? f.usernameChanges === 0
          ? 'never changed'
          : undefined
        : formatDate(f.lastUsernameChange);
    case 'affiliate':
      if (f.affiliate === undefined) return undefined;
      return f.affiliate === false ? 'none' : link(f.affiliate.name, f.affiliate.url);
  }
}

export function renderAboutMarkdown(read: AboutRead, ctx: RenderContext): string {
  const f = read.facts;
  const name = f.name ? `${escapeLine(f.name)} (@${escapeLine(f.handle)})` : `@${escapeLine(f.handle)}`;
  const parts = [`# About ${name}`];
  const here = serviceProfileUrl(ctx, f.handle, f.id);
  const onX = xProfileUrl(f.handle);
  const links = [here ? link('Profile', here) : '', onX ? `[About on X](${onX}/about)` : ''].filter(Boolean);
  if (links.length) parts.push(links.join(' · '));
  const unknown = new Set(read.unknown);
  parts.push(
    (Object.keys(LABELS) as AboutFact[])
      .map(
        (k) =>
          `- ${LABELS[k]}: ${unknown.has(k) ? `unknown (${escapeLine(read.source)} did not say)` : (stated(read, k) ?? 'unknown')}`,
      )
      .join('\n'),
  );
  if (read.warnings.length) parts.push(`*Note: ${read.warnings.map((w) => escapeLine(w)).join(' · ')}*`);
  if (ctx.full) parts.push(`Source: ${escapeLine(read.source)}`);
  return parts.join('\n\n') + '\n';
}
