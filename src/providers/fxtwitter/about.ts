// FxTwitter's account facts: /2/profile/{h} (joined, verification and since when) and /2/profile/{h}/about (based
// in, how it connects, username changes), read together. FxTwitter names no affiliate badge, so that fact stays
// unknown here. A profile that cannot be read fails the read; an about answer that cannot be read leaves its facts
// unknown.
import { encodePart } from '../../domain/links.ts';
import type { AccountFacts } from '../../domain/about.ts';
import { compact } from '../shared/compact.ts';
import { toIso } from '../shared/dates.ts';
import { ProviderError, type CallOptions } from '../types.ts';
import type { FxTwitterClient } from './client.ts';
import type { FxAboutResponse, FxUser, FxUserResponse } from './wire.ts';

export async function fxAbout(client: FxTwitterClient, handle: string, opts: CallOptions): Promise<AccountFacts> {
  const path = `/2/profile/${encodePart(handle)}`;
  const [profile, about] = await Promise.all([client.get(path, opts), client.get(`${path}/about`, opts)]);
  client.failOnSuspended(profile);
  client.failOnStatus(profile, 'profile');
  const user = (profile.body as Partial<FxUserResponse> | undefined)?.user;
  if (!user?.screen_name)
    throw new ProviderError(client.name, 'empty', `${client.name} returned no profile for @${handle}`);
  if (user.protected) throw new ProviderError(client.name, 'not_found', `@${handle} is not public`);
  const facts = fromUser(user);
  const body = about.status === 200 ? (about.body as Partial<FxAboutResponse> | undefined) : undefined;
  if (!body || typeof body.code !== 'number') return facts;
  const a = body.about_account;
  const changes = a?.username_changes;
  return compact({
    ...facts,
    basedIn: a?.based_in ?? undefined,
    basedInAccurate: a?.based_in ? a.location_accurate : undefined,
    connectedVia: a?.source ?? undefined,
    usernameChanges: typeof changes?.count === 'number' ? changes.count : undefined,
    lastUsernameChange: toIso(changes?.last_changed_at),
  });
}

function fromUser(u: FxUser): AccountFacts {
  const v = u.verification;
  return compact({
    id: u.id,
    handle: u.screen_name,
    name: u.name,
    joined: toIso(u.joined),
    verified: v ? v.verified : undefined,
    verifiedType: v?.verified ? (v.type ?? undefined) : undefined,
    verifiedSince: v?.verified ? toIso(v.verified_at) : undefined,
    identityVerified: v?.identity_verified,
  });
}
