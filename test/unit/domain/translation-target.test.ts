// The language a requested tag is translated into: variants of one language share one target (one cache entry, one
// upstream read); only Chinese scripts and Portuguese regions stay apart, as the upstreams translate them apart.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalLang, translationTarget, upstreamLang } from '../../../src/domain/language.ts';

const target = (raw: string) => translationTarget(canonicalLang(raw)!);

test('regions, variants and scripts of one language share its primary tag', () => {
  for (const raw of ['de', 'de-AT', 'de-CH', 'de-DE', 'de-LU', 'de-1996', 'de-Latn', 'DE-at'])
    assert.equal(target(raw), 'de', raw);
  assert.equal(target('en-GB'), 'en');
  assert.equal(target('iw'), 'he');
  assert.equal(target('fr-CA'), 'fr');
});

test('Chinese by script and Portuguese by region stay apart', () => {
  for (const raw of ['zh-Hant', 'zh-TW', 'zh-HK', 'zh-MO', 'zh-Hant-CN']) assert.equal(target(raw), 'zh-Hant', raw);
  for (const raw of ['zh', 'zh-Hans', 'zh-CN', 'zh-SG', 'zh-Hans-TW']) assert.equal(target(raw), 'zh-Hans', raw);
  assert.equal(target('pt-br'), 'pt-BR');
  for (const raw of ['pt-PT', 'pt-AO', 'pt-MZ']) assert.equal(target(raw), 'pt-PT', raw);
  assert.equal(target('pt'), 'pt');
});

test('the upstream code of each target', () => {
  assert.equal(upstreamLang('de'), 'de');
  assert.equal(upstreamLang('zh-Hant'), 'zh-tw');
  assert.equal(upstreamLang('zh-Hans'), 'zh-cn');
  assert.equal(upstreamLang('pt-BR'), 'pt-br');
  assert.equal(upstreamLang('pt-PT'), 'pt-pt');
});
