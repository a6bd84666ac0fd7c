// X List parsers on trimmed real captures (twscrape raw_list_timeline / raw_list_members) and a built
// ListByRestId answer (test/fixtures/x/README.md says where each comes from).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProviderError } from '../../../../src/providers/types.ts';
import { parseList, parseListMembersPage, parseListPostsPage } from '../../../../src/providers/x/lists.ts';
import { parseUserResult } from '../../../../src/providers/x/parse.ts';
import type { XEnvelope } from '../../../../src/providers/x/wire.ts';
import { fixture } from '../fixtures.ts';

const x = (name: string) => fixture<XEnvelope>(`x/${name}`);

function rejectsWith(fn: () => unknown, kind: string, pattern?: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ProviderError, `expected ProviderError, got ${String(err)}`);
    assert.equal(err.kind, kind);
    if (pattern) assert.match(err.message, pattern);
    return true;
  });
}

describe('x parse: ListLatestTweetsTimeline', () => {
  const page = parseListPostsPage(x('list_latest_tweets.json'), '1584662815066940673');

  it('reads single tweet- entries and the posts of list-conversation- modules, in order', () => {
    assert.deepEqual(
      page.items.map((p) => p.id),
      ['2085474086805762419', '2085473570625294744', '2085455971833327974', '2085455974131740934'],
    );
  });

  it('keeps reposts as reposts of the original, by the member who reposted', () => {
    const first = page.items[0]!;
    assert.equal(first.author.handle, 'IlvesToomas');
    assert.ok(first.repostOf, 'the first entry is a repost');
    assert.equal(first.repostOf.author.handle, 'FideliusSchmid');
  });

  it('hands back the bottom cursor', () => {
    assert.equal(page.nextCursor, 'DAABCgABHPEX7iL__58KAAIc8ORDHNYQFAgAAwAAAAIAAA');
  });

  it('a list X does not know is not_found; a list without its timeline is an error', () => {
    rejectsWith(() => parseListPostsPage(x('list_not_found.json'), '1'), 'not_found', /list 1/);
    rejectsWith(() => parseListPostsPage({ data: { list: { name: 'x' } } }, '1'), 'error', /without a timeline/);
  });
});

describe('x parse: ListMembers', () => {
  const page = parseListMembersPage(x('list_members.json'), '1584662815066940673');

  it('reads the user- entries as accounts (2026 user shape) and the bottom cursor', () => {
    assert.deepEqual(
      page.items.map((a) => a.handle),
      ['Podolyak_M', 'PolymarketIntel'],
    );
    assert.equal(page.items[0]!.id, '1498176452084256772');
    assert.equal(page.items[0]!.followers, 1768150);
    assert.equal(page.nextCursor, '4611686021423725315|2085474419655835626');
  });
});

describe('x parse: ListByRestId', () => {
  it('reads name, description, counts, creation time and the owner', () => {
    const l = parseList(x('list_by_rest_id.json'), '1584662815066940673');
    assert.equal(l.id, '1584662815066940673');
    assert.equal(l.name, 'Ukraine');
    assert.equal(l.description, 'Voices on the war in Ukraine');
    assert.equal(l.members, 97);
    assert.equal(l.subscribers, 1204);
    assert.equal(l.createdAt, '2022-04-18T10:13:56.000Z');
    assert.equal(l.owner.handle, 'Podolyak_M');
  });

  it('a private list and an unknown one are not_found', () => {
    const env = x('list_by_rest_id.json');
    const priv = { data: { list: { ...env.data!.list!, mode: 'Private' } } };
    rejectsWith(() => parseList(priv, '1584662815066940673'), 'not_found', /private/);
    rejectsWith(() => parseList(x('list_not_found.json'), '7'), 'not_found', /list 7/);
  });

  it('a list without a readable owner is an error, not a list', () => {
    const env = x('list_by_rest_id.json');
    const ownerless = { data: { list: { ...env.data!.list!, user_results: {} } } };
    rejectsWith(() => parseList(ownerless, '1'), 'error', /unreadable list/);
  });
});

describe('x parse: UserByRestId', () => {
  it('answers like UserByScreenName and names the account by id when it is missing', () => {
    const a = parseUserResult(x('user_by_screen_name_current.json'), 'account 2244994945');
    assert.equal(a.handle, 'XDevelopers');
    rejectsWith(() => parseUserResult(x('user_not_found.json'), 'account 42'), 'not_found', /account 42/);
  });
});
