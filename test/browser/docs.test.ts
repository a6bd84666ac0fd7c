// /docs in Debian's Chromium (headless, driven by playwright-core): the pages render without JavaScript, and a
// problem's documentation anchor resolves and is scrolled into view. Without /usr/bin/chromium the test is skipped
// locally and fails under CI (where .ci/run installs it).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { chromiumSkip, launchChromium } from '../helpers/chromium.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const skip = chromiumSkip;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let s: Stack;
let profileDir: string;
let ctx: BrowserContext;
let noJs: BrowserContext;
let noJsDir: string;

const launch = (dir: string, javaScriptEnabled: boolean) => launchChromium(dir, javaScriptEnabled, 800);

/** Kept for a person to look at when a run fails; the PNG also must be non-trivial. */
async function checkScreenshot(png: Buffer, name: string): Promise<void> {
  assert.ok(png.subarray(0, 8).equals(PNG_SIGNATURE), 'a PNG');
  assert.ok(png.length > 8_000, `${name}: ${png.length} bytes is too small to be a rendered page`);
  await writeFile(join(tmpdir(), `threadmark-${name}.png`), png);
}

describe('documentation in a real browser', { skip }, () => {
  before(async () => {
    s = await startStack();
    profileDir = await mkdtemp(join(tmpdir(), 'threadmark-chromium-'));
    noJsDir = await mkdtemp(join(tmpdir(), 'threadmark-chromium-nojs-'));
    ctx = await launch(profileDir, true);
    noJs = await launch(noJsDir, false);
  });
  after(async () => {
    await ctx?.close();
    await noJs?.close();
    await s?.close();
    for (const dir of [profileDir, noJsDir]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('/docs renders readable content with JavaScript disabled', async () => {
    const page = await noJs.newPage();
    const res = await page.goto(`${s.url}/docs`);
    assert.equal(res?.status(), 200);
    assert.match(await page.title(), /Documentation/);
    const h1 = page.locator('h1');
    assert.ok(await h1.isVisible());
    assert.match((await h1.textContent()) ?? '', /threadmark/);
    const quick = await page.locator('#quick-start').boundingBox();
    assert.ok(quick && quick.width > 200, 'laid out');
    assert.ok((await page.locator('section[id^="route-"]').count()) >= 10);
    await checkScreenshot(await page.screenshot(), 'docs');
    await page.close();
  });

  test('/docs/reliability#invalid-thread resolves and is scrolled into view', async () => {
    const page = await ctx.newPage();
    const res = await page.goto(`${s.url}/docs/reliability#invalid-thread`);
    assert.equal(res?.status(), 200);
    const anchor = page.locator('#invalid-thread');
    assert.equal(await anchor.count(), 1);
    await page.waitForFunction(() => window.scrollY > 0);
    const state = await page.evaluate(() => {
      const el = document.getElementById('invalid-thread')!;
      const box = el.getBoundingClientRect();
      return {
        top: box.top,
        bottom: box.bottom,
        height: window.innerHeight,
        scrollY: window.scrollY,
        target: document.querySelector(':target')?.id,
      };
    });
    assert.equal(state.target, 'invalid-thread');
    assert.ok(state.scrollY > 0, 'the page scrolled to the anchor');
    assert.ok(
      state.top >= -1 && state.top < state.height / 2,
      `anchor near the top of the viewport: ${JSON.stringify(state)}`,
    );
    assert.match((await anchor.textContent()) ?? '', /invalid_thread.*400.*Invalid thread parameter/s);
    await checkScreenshot(await page.screenshot(), 'reliability-invalid-thread');
    await page.close();
  });
});
