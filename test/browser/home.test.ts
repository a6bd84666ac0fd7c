// The home page in Debian's Chromium (headless, driven by playwright-core): paste a post link, choose Obsidian,
// press Convert and get the Markdown, with JavaScript and without it, and with the keyboard alone; a hostile
// pasted value stays text; the strict Content-Security-Policy is never violated. Without /usr/bin/chromium the
// test is skipped locally and fails under CI (where .ci/run installs it).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { chromiumSkip, launchChromium } from '../helpers/chromium.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const skip = chromiumSkip;

const POST_LINK = `https://x.com/${HANDLES.alice}/status/${IDS.threadPhoto}`;
const PERMALINK = `/${HANDLES.alice}/status/${IDS.threadPhoto}`;

let s: Stack;
let ctx: BrowserContext;
let noJs: BrowserContext;
const dirs: string[] = [];

async function launch(javaScriptEnabled: boolean): Promise<BrowserContext> {
  const dir = await mkdtemp(join(tmpdir(), 'threadmark-chromium-home-'));
  dirs.push(dir);
  return launchChromium(dir, javaScriptEnabled, 900);
}

/**
 * Console messages that report a Content-Security-Policy violation, and script errors. (The preview's media are
 * the simulator's pbs.twimg.com addresses, which do not resolve here: those load failures are not the page's.)
 */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/**
 * A small accessibility audit run in the page: form controls without a label or name, and visible text whose
 * contrast with its background is under WCAG AA's 4.5:1. Plain JavaScript source, so the TypeScript loader's
 * helpers never reach the page.
 */
const AUDIT = `(() => {
  const unlabelled = [...document.querySelectorAll('input, select, textarea, button')]
    .filter((el) => !el.hidden && !el.closest('[hidden]'))
    .filter((el) => !((el.labels && el.labels.length) || el.getAttribute('aria-label') || el.textContent.trim()))
    .map((el) => el.outerHTML.slice(0, 80));
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lin = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
  const lum = (c) => 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0)) return c.slice(0, 3);
    }
    return matchMedia('(prefers-color-scheme: dark)').matches ? [0, 0, 0] : [255, 255, 255];
  };
  const low = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || el.closest('[hidden]')) continue;
    const fg = lum(rgb(getComputedStyle(el).color));
    const bg = lum(background(el));
    const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    if (ratio < 4.5) low.push(el.tagName + ' ' + ratio.toFixed(2) + ' ' + n.textContent.trim().slice(0, 30));
  }
  return { unlabelled, low, lang: document.documentElement.lang, title: document.title };
})()`;

describe('home page in a real browser', { skip }, () => {
  before(async () => {
    s = await startStack();
    ctx = await launch(true);
    noJs = await launch(false);
  });
  after(async () => {
    await ctx?.close();
    await noJs?.close();
    await s?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  test('paste a post link, choose Obsidian, Convert: the Markdown, Copy, the permalink and a preview', async () => {
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.url });
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    const res = await page.goto(`${s.url}/`);
    assert.equal(res?.status(), 200);
    await page.getByLabel('X link or handle').fill(POST_LINK);
    await page.getByLabel('Format').selectOption('obsidian');
    await page.getByRole('button', { name: 'Convert' }).click();
    const output = page.locator('#output');
    await output.waitFor();
    const expected = await (await s.get(`${PERMALINK}?format=obsidian`)).text();
    assert.equal(await output.textContent(), expected);
    // No navigation: the script converted in place.
    assert.equal(new URL(page.url()).search, '');
    assert.equal(await page.locator('#permalink').getAttribute('href'), `${PERMALINK}?format=obsidian`);
    await page.bringToFront();
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.locator('#copied').filter({ hasText: /./ }).waitFor();
    assert.equal(await page.locator('#copied').textContent(), 'Copied.');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), expected);
    // The preview is the service's own HTML page of the read, in a sandboxed frame.
    await page.locator('#preview-section').waitFor({ state: 'visible' });
    const frame = page.frameLocator('#preview');
    await frame.locator('body').filter({ hasText: /Alice/ }).waitFor();
    assert.equal(await page.locator('#preview').getAttribute('sandbox'), '');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('the same with JavaScript disabled: the form submits and the page answers with the Markdown', async () => {
    const page = await noJs.newPage();
    await page.goto(`${s.url}/`);
    await page.getByLabel('X link or handle').fill(POST_LINK);
    await page.getByLabel('Format').selectOption('obsidian');
    await Promise.all([page.waitForURL(/\?url=/), page.getByRole('button', { name: 'Convert' }).click()]);
    const expected = await (await s.get(`${PERMALINK}?format=obsidian`)).text();
    assert.equal(await page.locator('#output').textContent(), expected);
    assert.equal(await page.locator('#permalink').getAttribute('href'), `${PERMALINK}?format=obsidian`);
    assert.equal(await page.getByLabel('X link or handle').inputValue(), POST_LINK);
    assert.equal(await page.getByLabel('Format').inputValue(), 'obsidian');
    await page.close();
  });

  test('keyboard only: Tab to the field, type, pick the format, Enter on Convert, Tab to Copy', async () => {
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await page.goto(`${s.url}/`);
    const focused = () => page.evaluate(() => document.activeElement?.id ?? '');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'url');
    await page.keyboard.type(POST_LINK);
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'format');
    // Compact → expanded → obsidian.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.locator('#format').inputValue(), 'obsidian');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'thread');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Convert');
    // The focused control is visibly outlined.
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    assert.notEqual(outline, 'none');
    await page.keyboard.press('Enter');
    await page.locator('#output').waitFor();
    assert.match((await page.locator('#output').textContent()) ?? '', /^---\n/);
    // Onwards from Convert: the permalink link, then Copy.
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'permalink');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'copy');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('accessibility check: every control labelled, text contrast at least 4.5:1 in light and dark schemes', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await ctx.newPage();
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${s.url}/?url=${encodeURIComponent(POST_LINK)}`);
      const report = await page.evaluate<{ unlabelled: string[]; low: string[]; lang: string; title: string }>(AUDIT);
      assert.deepEqual(report.unlabelled, [], scheme);
      assert.deepEqual(report.low, [], scheme);
      assert.equal(report.lang, 'en');
      assert.ok(report.title.length > 0);
      await page.close();
    }
  });

  test('a hostile pasted value is shown as text, with and without JavaScript', async () => {
    const hostile = '"><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">';
    for (const context of [ctx, noJs]) {
      const page = await context.newPage();
      await page.goto(`${s.url}/`);
      await page.getByLabel('X link or handle').fill(hostile);
      await page.getByRole('button', { name: 'Convert' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      assert.ok(((await alert.textContent()) ?? '').length > 0);
      assert.equal(await page.getByLabel('X link or handle').inputValue(), hostile);
      assert.equal(await page.locator('img').count(), 0);
      if (context === ctx) assert.equal(await page.evaluate(() => (window as { __pwned?: number }).__pwned), undefined);
      await page.close();
    }
  });
});
