// What every browser suite of the web app shares: Debian's Chromium driven by playwright-core (never a
// downloaded browser), the skip line when there is none, and axe-core's verdict on a page.
import { AxeBuilder } from '@axe-core/playwright';
import { jest } from '@jest/globals';
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const found = existsSync(CHROMIUM);

/**
 * Where the browser suites run instead of this run, when a CI pass leaves them to another (.ci/run's first
 * pass: the pages render the same on both runtimes, and they are its slowest suites). Unset: they run.
 */
const elsewhere = process.env.BROWSER_SUITES_ELSEWHERE?.trim();

/**
 * `describe` when a Chromium is installed; otherwise the suite is skipped with a line of its own that says
 * how to get one, or, with BROWSER_SUITES_ELSEWHERE, where it runs instead.
 */
export function describeInChromium(name: string, suite: () => void): void {
  if (found && !elsewhere) {
    // A browser test walks several pages, each rendered by the service and by Chromium on the same two
    // cores as PostgreSQL and a second jest worker: jest's 30 s default was too short under that load.
    jest.setTimeout(120_000);
    return describe(name, suite);
  }
  // Straight to the terminal, on a line of its own (jest's console would wrap it in a stack note).
  process.stdout.write(
    elsewhere
      ? `\nSKIPPED the browser suite "${name}" in this run: it runs ${elsewhere} (BROWSER_SUITES_ELSEWHERE)\n`
      : `\nSKIPPED the browser suite "${name}": no Chromium at ${CHROMIUM}; install one with: apt-get install -y chromium\n`,
  );
  describe.skip(name, suite);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
}

interface Violation {
  id: string;
  help: string;
  impact?: string | null;
  nodes: Array<{ target: unknown[] }>;
}

/** axe-core's serious and critical violations on the page as it stands, one line each (none expected). */
export async function severeViolations(page: Page): Promise<string[]> {
  const { violations } = (await new AxeBuilder({ page }).analyze()) as { violations: Violation[] };
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/**
 * Does what leads to another page (following a link, sending a form, Enter on either) and waits until that
 * page has loaded. `waitForLoadState()` after the click alone answers at once while the old page is still
 * the loaded one: under load the next line read the old page (CI, 2026-11-27: the 404 page still German
 * right after the click on "English").
 */
export async function toNextPage(page: Page, action: () => Promise<unknown>): Promise<void> {
  const loaded = page.waitForEvent('load');
  await action();
  await loaded;
}
