// Alt text is kept everywhere it exists: a GIF in a reply (a real X TweetDetail capture, twscrape
// raw_tweet_details.json; see test/fixtures/x/README.md) keeps its description in the compact reply line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConversation } from '../../../src/providers/x/parse.ts';
import type { XEnvelope } from '../../../src/providers/x/wire.ts';
import { renderReplyList } from '../../../src/render/markdown/replies.ts';
import { markdownDialect } from '../../../src/render/markdown/dialect.ts';
import type { ReplyNode } from '../../../src/domain/models.ts';
import { fixture } from '../providers/fixtures.ts';

test('a GIF in a reply keeps its alt text in the reply line', () => {
  const { bundle } = parseConversation(fixture<XEnvelope>('x/tweet_detail_gif_reply.json'), '1649191520250245121');
  const reply = bundle.replies.find((n) => n.post.id === '1649263296434806785')!;
  assert.equal(reply.post.media[0]?.altText, 'James Franco Omg GIF');
  const md = renderReplyList([reply], false, markdownDialect);
  assert.ok(md.includes('[GIF: James Franco Omg GIF](https://video.twimg.com/tweet_video/FuNcOVrXoAIGi0f.mp4)'), md);
});

test('a video in a reply keeps its alt text after its duration', () => {
  const base = structuredClone<ReplyNode>(
    parseConversation(fixture<XEnvelope>('x/tweet_detail_gif_reply.json'), '1649191520250245121').bundle.replies[0]!,
  );
  base.post.media = [{ kind: 'video', url: 'https://video.twimg.com/v.mp4', durationSeconds: 12, altText: 'A demo' }];
  assert.ok(
    renderReplyList([base], false, markdownDialect).includes('[video 0:12: A demo](https://video.twimg.com/v.mp4)'),
  );
});
