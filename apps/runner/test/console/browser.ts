import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Browser, Page, chromium } from 'playwright-core';

/**
 * Where screenshots go: the console README's own (apps/console/docs/screenshots) only when
 * CONSOLE_SCREENSHOTS=update asks for them; otherwise a temporary directory, so a test run leaves
 * the committed files alone.
 */
export const SCREENSHOTS =
  process.env.CONSOLE_SCREENSHOTS === 'update'
    ? join(__dirname, '..', '..', '..', 'console', 'docs', 'screenshots')
    : mkdtempSync(join(tmpdir(), 'agp-console-screenshots-'));

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

/**
 * WCAG 2.1 A and AA rules of axe-core (injected: the context bypasses the console's CSP). A page
 * is judged once it has settled: what a first pass finds is looked at again a second later, so a
 * frame caught mid-render (a chart drawing itself, a list replacing its placeholder) is not taken
 * for the page. Each finding names its element and axe's reason, so a failure says what to mend.
 */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const first = await axeSerious(page);
  if (first.length === 0) {
    return first;
  }
  await page.waitForTimeout(1_000);
  return axeSerious(page);
}

async function axeSerious(page: Page): Promise<string[]> {
  const violations = await page.evaluate(async () => {
    // Runs in the page (this file is compiled without the DOM's types).
    const { axe, document } = globalThis as unknown as {
      document: unknown;
      axe: {
        run: (...args: unknown[]) => Promise<{
          violations: Array<{
            id: string;
            impact: string;
            nodes: Array<{ target: string[]; html: string; failureSummary?: string }>;
          }>;
        }>;
      };
    };
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)} (${n.failureSummary ?? ''})`)
          .join('; ')}`,
    );
}
