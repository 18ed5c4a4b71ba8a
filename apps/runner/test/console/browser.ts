import { join } from 'node:path';

import { Browser, Page, chromium } from 'playwright-core';

/** Where the screenshots of the console's README are written (apps/console/docs/screenshots). */
export const SCREENSHOTS = join(__dirname, '..', '..', '..', 'console', 'docs', 'screenshots');

/**
 * Debian's Chromium (scripts/ensure-infra.mjs installs it), driven by playwright-core: no browser
 * is downloaded. The flags keep it off the network this machine does not have.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
