// Debian's Chromium for the browser tests, started headless as this machine allows (no sandbox as root, nothing
// that reaches out to the network). Without /usr/bin/chromium a browser test is skipped locally and fails under CI,
// where .ci/run installs it.
import { existsSync } from 'node:fs';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const available = existsSync(CHROMIUM);
if (!available && process.env.CI)
  throw new Error(`${CHROMIUM} is missing: CI must install Debian's chromium (.ci/run does).`);
export const chromiumSkip: string | false = available
  ? false
  : `${CHROMIUM} not installed (apt-get install chromium); required when CI is set`;

/** A browser with its own profile folder, scripts on or off, at the given window height. */
export function launchChromium(dir: string, javaScriptEnabled: boolean, height: number): Promise<BrowserContext> {
  return chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    javaScriptEnabled,
    viewport: { width: 1100, height },
  });
}
