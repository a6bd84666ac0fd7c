// Open Graph / Twitter-card metadata built from domain models: which image wins, how text is clipped, and that
// the page escapes every value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESCRIPTION_MAX, largeAvatar, postPreview, profilePreview } from '../../../src/render/link-preview.ts';
import { renderHtmlPage } from '../../../src/render/html.ts';
import { alice, articlePost, article, BASE, HOSTILE, mallory, selfThread } from '../../fixtures/render/corpus.ts';

test('avatar upgrade only touches X profile images', () => {
  assert.equal(
    largeAvatar('https://pbs.twimg.com/profile_images/1/a_normal.jpg'),
    'https://pbs.twimg.com/profile_images/1/a_400x400.jpg',
  );
  assert.equal(
    largeAvatar('https://pbs.twimg.com/profile_images/1/a_200x200.png'),
    'https://pbs.twimg.com/profile_images/1/a_400x400.png',
  );
  assert.equal(largeAvatar('https://example.com/a_normal.jpg'), 'https://example.com/a_normal.jpg');
  assert.equal(largeAvatar(undefined), undefined);
});

test('a long text is clipped at a word boundary with an ellipsis', () => {
  const long = { ...selfThread[0]!, text: 'word '.repeat(200), media: [] };
  const p = postPreview(long, `${BASE}/x/status/1`);
  assert.ok(p.description.length <= DESCRIPTION_MAX);
  assert.match(p.description, /word…$/);
});

test('an article post previews its title and uses the cover as a large image', () => {
  const p = postPreview({ ...articlePost, media: [] }, `${BASE}/a/status/2`);
  assert.ok(p.description.startsWith(article.title));
  if (article.coverUrl) {
    assert.equal(p.image?.url, article.coverUrl);
    assert.equal(p.card, 'summary_large_image');
  }
});

test('a profile without counts or bio still has a description', () => {
  const p = profilePreview({ id: '9', handle: 'quiet', name: 'Quiet' }, `${BASE}/quiet`);
  assert.equal(p.description, '@quiet on X');
  assert.equal(p.image, undefined);
  assert.equal(profilePreview(alice, `${BASE}/alice_dev`).username, 'alice_dev');
});

test('hostile values are escaped in every meta tag', () => {
  const html = renderHtmlPage('x', {
    title: 't',
    baseUrl: BASE,
    preview: { ...profilePreview({ ...mallory, bio: HOSTILE }, `${BASE}/m`), image: { url: 'javascript:alert(1)' } },
  });
  const head = html.slice(0, html.indexOf('</head>'));
  assert.doesNotMatch(head, /<script|="javascript:/);
  assert.match(head, /<meta property="og:description" content="&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.doesNotMatch(head, /og:image/, 'a non-http image is dropped');
});
