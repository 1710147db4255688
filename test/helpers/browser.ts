import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { eventually } from './eventually.js';

/** Debian's Chromium (scripts/ensureBrowser.sh installs it); CHROMIUM_PATH overrides. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
/** Screenshots of browser tests (git-ignored), kept as CI artifacts. */
export const ARTIFACTS_DIR = join(process.cwd(), 'test-artifacts');

/** Headless Chromium as CI runs it (root, no GPU, small /dev/shm). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage'],
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
