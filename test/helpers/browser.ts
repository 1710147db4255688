import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterRun } from './afterRun.js';
import { eventually } from './eventually.js';

/** Debian's Chromium (scripts/ensureBrowser.sh installs it); CHROMIUM_PATH overrides. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
/** Screenshots of browser tests (git-ignored), kept as CI artifacts. */
export const ARTIFACTS_DIR = join(process.cwd(), 'test-artifacts');

/** Headless Chromium as CI runs it (root, no GPU, small /dev/shm). */
function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

/** One Chromium per test process (a launch costs about a second of CPU): suites lease it one after another. */
let shared: Promise<Browser> | undefined;

/**
 * The process's headless Chromium, launched at the first lease and closed once the run is done (in a
 * parallel worker it dies with the worker: Playwright kills it when the process exits). Each suite's pages
 * and contexts are its own (a page is a context of its own: nothing is shared between suites but the
 * browser process); the lease's `close` closes those the lease opened, not the browser.
 */
export async function leaseBrowser(): Promise<Browser> {
  if (!shared) {
    shared = launchBrowser();
    shared.catch(() => (shared = undefined));
  }
  let browser = await shared;
  if (!browser.isConnected()) {
    shared = launchBrowser();
    browser = await shared;
  }
  const before = new Set(browser.contexts());
  const target = browser;
  return new Proxy(target, {
    get(object, property) {
      if (property === 'close')
        return async () => {
          await Promise.all(
            object
              .contexts()
              .filter((c) => !before.has(c))
              .map((c) => c.close()),
          );
        };
      const value = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

/** Collects a page's console errors and uncaught exceptions (tests assert there are none). */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()} at ${m.location().url}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return errors;
}

/** Saves a full-page screenshot under test-artifacts/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS_DIR, `${name}.png`), fullPage: true });
}

/** `eventually` (the one wait) for a value: polls `read` every 100 ms until it deep-equals `expected` (JSON). */
export async function eventuallyEquals<T>(
  read: () => Promise<T>,
  expected: T,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  await eventually(
    async () => {
      const last = await read();
      if (JSON.stringify(last) !== JSON.stringify(expected))
        throw new Error(`expected ${JSON.stringify(expected)}, still ${JSON.stringify(last)}`);
    },
    { timeoutMs, intervalMs: 100, what },
  );
}

// The shared browser closes once every suite of the run is done (afterRun).
afterRun(async () => {
  const browser = await shared?.catch(() => undefined);
  shared = undefined;
  await browser?.close();
});
