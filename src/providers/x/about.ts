// X's account facts (AboutAccountQuery), in the shape of twscrape's capture tests/mocked-data/raw_user_about.json
// @9745b02: `data.user_result_by_screen_name.result` holds the core fields (created_at), `about_profile`
// (account_based_in, location_accurate, source, username_changes {count, last_changed_at_msec} as strings),
// `verification` / `is_blue_verified`, `verification_info.reason.verified_since_msec` and the affiliate badge in
// `affiliates_highlighted_label.label` (an empty object when there is none).
import type { AccountFacts, Affiliation } from '../../domain/about.ts';
import { compact } from '../shared/compact.ts';
import { toIso } from '../shared/dates.ts';
import { ProviderError } from '../types.ts';
import { missing } from './parse.ts';
import type { XAboutUser, XEnvelope } from './wire.ts';

const msec = (v: string | undefined) => (v && /^[0-9]{1,16}$/.test(v) ? toIso(Number(v)) : undefined);

export function parseAbout(env: XEnvelope, handle: string): AccountFacts {
  const r = env.data?.user_result_by_screen_name?.result;
  if (r?.__typename === 'UserUnavailable')
    throw new ProviderError('x', 'not_found', `@${handle}: account unavailable${r.reason ? ` (${r.reason})` : ''}`);
  const u = r;
  const core = u?.core;
  if (!u || !core?.screen_name)
    throw missing(env, `@${handle}`, new ProviderError('x', 'not_found', `X has no account @${handle}`));
  if (u.privacy?.protected || u.legacy?.protected)
    throw new ProviderError('x', 'not_found', `@${handle} is not public`);
  const about = u.about_profile;
  const count = about?.username_changes?.count;
  const verified = !!(u.is_blue_verified || u.verification?.verified);
  return compact({
    id: u.rest_id,
    handle: core.screen_name,
    name: core.name,
    basedIn: about?.account_based_in,
    basedInAccurate: about?.account_based_in ? about.location_accurate : undefined,
    connectedVia: about?.source,
    joined: toIso(core.created_at),
    verified,
    verifiedType: verified ? u.verification?.verified_type?.toLowerCase() : undefined,
    verifiedSince: verified ? msec(u.verification_info?.reason?.verified_since_msec) : undefined,
    identityVerified: u.verification_info?.is_identity_verified,
    usernameChanges: count !== undefined && /^[0-9]{1,9}$/.test(count) ? Number(count) : undefined,
    lastUsernameChange: msec(about?.username_changes?.last_changed_at_msec),
    affiliate: affiliation(u),
  });
}

/** The affiliate badge; `false` when X answered the label and it is empty; undefined when X said nothing. */
function affiliation(u: XAboutUser): Affiliation | false | undefined {
  const holder = u.affiliates_highlighted_label;
  if (holder === undefined) return undefined;
  const label = holder.label;
  if (!label?.description) return false;
  return compact({ name: label.description, url: label.url?.url, badgeUrl: label.badge?.url });
}
