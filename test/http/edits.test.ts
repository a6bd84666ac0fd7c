// Edited posts through the real server against the simulator. Syndication and X GraphQL report edit_control;
// FxTwitter's API carries no edit data, so a post it answers shows no history (documented on /docs).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EDITED_TEXTS, HANDLES, IDS } from '../../sim/corpus.ts';
import { startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';

const VERSIONS = [IDS.editedFirst, IDS.editedSecond, IDS.editedLatest];
const at = (id: string) => `/${HANDLES.dave}/status/${id}`;
const xUrl = (id: string) => `https://x.com/${HANDLES.dave}/status/${id}`;

interface PostJson {
  post: { id: string; text: string; edits?: { versions: string[] } };
  warnings: string[];
}

/** `singlePost`: the provider also serves thread=off reads (X GraphQL serves conversations only). */
function editBehaviour(name: string, env: () => Record<string, string>, singlePost: boolean) {
  describe(`edits through ${name}`, () => {
    let s: Stack;
    before(async () => {
      s = await startStack(env());
    });
    after(async () => {
      await s.close();
    });

    test('the latest version says it was edited, how many versions, and links the earlier ones', async () => {
      const res = await s.get(at(IDS.editedLatest));
      assert.equal(res.status, 200);
      const md = await res.text();
      assert.ok(md.includes(EDITED_TEXTS[2]));
      assert.match(md, /\*Edited: 3 versions, this is the latest\.\*/);
      assert.ok(md.includes(`[1](${xUrl(IDS.editedFirst)}) · [2](${xUrl(IDS.editedSecond)}) · 3 (this one)`));
      assert.doesNotMatch(res.headers.get('x-warnings') ?? '', /edited/);
      assert.equal(res.headers.get('link'), `<${TEST_BASE}${at(IDS.editedSecond)}>; rel="predecessor-version"`);
    });

    test('an earlier version names and links the latest, in Markdown, headers and JSON', async () => {
      const res = await s.get(at(IDS.editedFirst));
      assert.equal(res.status, 200);
      const md = await res.text();
      assert.ok(md.includes(EDITED_TEXTS[0]), 'the old text is what was asked for');
      assert.ok(
        md.includes(
          `*Earlier version 1 of 3 of an edited post; the latest is [version 3](${xUrl(IDS.editedLatest)}).*`,
        ),
      );
      assert.match(
        res.headers.get('x-warnings') ?? '',
        new RegExp(`earlier version of an edited post: the latest is ${IDS.editedLatest}`),
      );
      assert.equal(res.headers.get('link'), `<${TEST_BASE}${at(IDS.editedLatest)}>; rel="latest-version"`);

      const json = (await (await s.get(`${at(IDS.editedFirst)}?format=json`)).json()) as PostJson;
      assert.deepEqual(json.post.edits, { versions: VERSIONS });
      assert.equal(json.post.text, EDITED_TEXTS[0]);
      assert.ok(json.warnings.some((w) => w.includes(IDS.editedLatest)));
    });

    test('a middle version links both neighbours', async () => {
      const res = await s.get(at(IDS.editedSecond));
      assert.equal(
        res.headers.get('link'),
        `<${TEST_BASE}${at(IDS.editedLatest)}>; rel="latest-version", <${TEST_BASE}${at(IDS.editedFirst)}>; rel="predecessor-version"`,
      );
      assert.match(await res.text(), /Earlier version 2 of 3/);
    });

    test('the HTML page shows the edit note with working links', async () => {
      const html = await (await s.get(at(IDS.editedFirst), { headers: { accept: 'text/html' } })).text();
      assert.match(
        html,
        /<em>Earlier version 1 of 3 of an edited post; the latest is <a href="https:\/\/x\.com\/dave\/status\/1900000000000000703"[^>]*>version 3<\/a>\.<\/em>/,
      );
    });

    if (singlePost)
      test('thread=off (a single-post read) gives the same note and warning', async () => {
        const res = await s.get(`${at(IDS.editedFirst)}?thread=off&format=json`);
        assert.equal(res.status, 200);
        const json = (await res.json()) as PostJson;
        assert.deepEqual(json.post.edits, { versions: VERSIONS });
        assert.ok(json.warnings.some((w) => w.includes(IDS.editedLatest)));
      });

    test('a never-edited post carries no edit information', async () => {
      const json = (await (await s.get(`/${HANDLES.alice}/status/${IDS.threadRoot}?format=json`)).json()) as PostJson;
      assert.equal(json.post.edits, undefined);
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'threadmark-edits-'));
after(() => rmSync(dir, { recursive: true, force: true }));

editBehaviour('syndication', () => ({ THREADMARK_PROVIDERS: 'syndication' }), true);
editBehaviour(
  'X GraphQL',
  () => {
    const path = join(dir, 'sessions.jsonl');
    writeFileSync(path, JSON.stringify({ username: 'edits', auth_token: 'edits_token_1', ct0: 'edits_ct0_1' }) + '\n');
    return { THREADMARK_PROVIDERS: 'x', THREADMARK_X_SESSIONS: path };
  },
  false,
);

describe('edits through FxTwitter', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_PROVIDERS: 'fxtwitter' });
  });
  after(async () => {
    await s.close();
  });
  test('FxTwitter has no edit data: the version read is shown as is', async () => {
    const json = (await (await s.get(`${at(IDS.editedFirst)}?thread=off&format=json`)).json()) as PostJson;
    assert.equal(json.post.text, EDITED_TEXTS[0]);
    assert.equal(json.post.edits, undefined);
  });
});
