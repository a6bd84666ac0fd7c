// Obsidian front matter parameters of the post routes: fields added as documented and read back by a YAML parser,
// the default note unchanged, bad values refused with invalid_note_template, other representations untouched.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack } from '../helpers/stack.ts';
import { IDS } from '../../sim/corpus.ts';
import { DEFAULT_NOTE_FIELDS, frontMatter } from '../helpers/notes.ts';

let s: Stack;
before(async () => {
  s = await startStack();
});
after(() => s.close());

const POST = `/api/v1/posts?handle=alice_dev&id=${IDS.threadRoot}&thread=off&format=obsidian`;

describe('note_* parameters on format=obsidian', () => {
  test('metrics, tags, cssclasses, fetched and fixed fields, after the default fields', async () => {
    const q = new URLSearchParams({
      note_metrics: 'true',
      note_tags: 'reading,x/threads',
      note_cssclasses: 'wide,tm-note',
      note_fetched: 'true',
      note_fields: 'project=cache: "layers" #1,status=to read',
    });
    const res = await s.get(`${POST}&${q}`);
    assert.equal(res.status, 200);
    const fm = frontMatter(await res.text());
    assert.equal(fm.id, IDS.threadRoot);
    assert.deepEqual(fm.tags, ['caching', 'reading', 'x/threads'], "the post's own hashtag first");
    assert.deepEqual(fm.cssclasses, ['wide', 'tm-note']);
    assert.equal(typeof fm.likes, 'number');
    assert.equal(typeof fm.views, 'number');
    assert.ok(!Number.isNaN(Date.parse(String(fm.fetched))));
    assert.equal(fm.project, 'cache: "layers" #1');
    assert.equal(fm.status, 'to read');
    assert.deepEqual(Object.keys(fm).slice(0, 8), DEFAULT_NOTE_FIELDS);
  });

  test('without them the note is the default one', async () => {
    const plain = await (await s.get(POST)).text();
    const fm = frontMatter(plain);
    assert.deepEqual(Object.keys(fm), DEFAULT_NOTE_FIELDS);
    const json = await s.get(`${POST.replace('format=obsidian', 'format=json')}&note_metrics=true&note_tags=x`);
    assert.equal(json.status, 200, 'other representations ignore them');
  });

  test('bad templates are 400 invalid_note_template', async () => {
    for (const bad of [
      'note_tags=has%20space',
      'note_tags=123',
      'note_cssclasses=1wide',
      'note_fields=id%3D3',
      'note_fields=tags%3Dx',
      'note_fields=novalue',
      'note_fields=a%3D1,a%3D2',
      `note_fields=${'k'.repeat(41)}%3Dv`,
      `note_tags=${Array.from({ length: 21 }, (_, i) => `t${i}`).join(',')}`,
    ]) {
      const res = await s.get(`${POST}&${bad}`);
      const body = (await res.json()) as { code: string };
      assert.equal(res.status, 400, bad);
      assert.equal(body.code, 'invalid_note_template', bad);
    }
    const flag = await s.get(`${POST}&note_metrics=maybe`);
    assert.equal(((await flag.json()) as { code: string }).code, 'invalid_flag');
  });
});
