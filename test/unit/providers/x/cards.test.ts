// Every card kind X sends, each a real captured tweet result (test/fixtures/x/tweet_cards.json, from twscrape's
// mocked data; see the README): summary, summary_large_image, player, audiospace, broadcast and a website
// "unified card", whose card_url is the placeholder https://twitter.com and whose destination is in its JSON.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Post } from '../../../../src/domain/models.ts';
import { parseTweetResult } from '../../../../src/providers/x/post.ts';
import { parseUnifiedCard } from '../../../../src/providers/shared/cards.ts';
import type { XTweetResult } from '../../../../src/providers/x/wire.ts';
import { fixture } from '../fixtures.ts';

const cards = fixture<Record<string, { result: XTweetResult }>>('x/tweet_cards.json');
const post = (kind: string) => parseTweetResult(cards[kind]!.result) as Post;

describe('x parse: cards (twscrape captures)', () => {
  it('a website unified card links to its real destination with its title, domain and image', () => {
    assert.deepEqual(post('unified_card').card, {
      url: 'https://fortnite.com/b/chapter4-season4?utm_source=Twitter&utm_campaign=FNBR_RT_C4S4_Twitter_LINK-CLICKS_IT',
      title: 'Il colpo perfetto ha inizio!',
      domain: 'fortnite.com',
      imageUrl: 'https://pbs.twimg.com/amplify_video_thumb/1696919248436670464/img/esk-plpGUGbuPPZx.jpg',
    });
  });

  it('summary and summary_large_image: the expanded link, title, description, domain and original image', () => {
    const large = post('summary_large_image').card!;
    assert.match(large.url, /^https:\/\/www\.spiegel\.de\/panorama\/flughafen-leipzig/);
    assert.match(large.title!, /Flughafen Leipzig/);
    assert.equal(large.domain, 'spiegel.de', 'the domain as the card shows it (vanity_url)');
    assert.match(large.imageUrl!, /name=orig$/);
    const small = post('summary').card!;
    assert.match(small.url, /^https:\/\/www\.osw\.waw\.pl\//);
    assert.match(small.title!, /China hits Europe/);
    assert.ok(small.description && small.imageUrl);
  });

  it('player: the linked page with its title and the player image', () => {
    const c = post('player').card!;
    assert.equal(c.url, 'https://ow.ly/LXQm50ZwPj7');
    assert.equal(c.title, 'Democracy, Diplomacy, and the New World Order');
    assert.equal(c.domain, 'youtube.com');
    assert.ok(c.imageUrl, 'player_image_* is read');
  });

  it('broadcast: its page, title and thumbnail; audiospace: the Space link', () => {
    assert.deepEqual(post('broadcast').card, {
      url: 'https://twitter.com/i/broadcasts/1BRJjPqnBqaKw',
      title: 'Migrating developer apps to the X API 2',
      imageUrl: 'https://pbs.twimg.com/card_img/1807101457176653824/7mhMDRKC?format=jpg&name=orig',
    });
    assert.deepEqual(post('audiospace').card, { url: 'https://twitter.com/i/spaces/1vOxwjaWEbdJB' });
  });
});

describe('unified app card (built: public captures of one are cut short after the button group)', () => {
  it('links the store page of the app its install button names', () => {
    const json = JSON.stringify({
      type: 'image_app',
      component_objects: {
        button_group_1: {
          type: 'button_group',
          data: { buttons: [{ action: 'install', destination: 'app_store_1' }] },
        },
        media_1: { type: 'media', data: { id: '3_1' } },
      },
      destination_objects: { app_store_1: { type: 'app_store', data: { app_id: 'app_1', media_id: '3_1' } } },
      app_store_data: { app_1: [{ type: 'android_app', id: 'com.example.app', title: { content: 'Example' } }] },
      media_entities: { '3_1': { media_url_https: 'https://pbs.twimg.com/media/app.jpg' } },
    });
    assert.deepEqual(parseUnifiedCard(json), {
      url: 'https://play.google.com/store/apps/details?id=com.example.app',
      title: 'Example',
      domain: 'play.google.com',
      imageUrl: 'https://pbs.twimg.com/media/app.jpg',
    });
    assert.equal(parseUnifiedCard('{"type":"image_app"'), undefined, 'a cut-short card is no card');
  });
});
