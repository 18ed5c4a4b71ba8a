import { Browser, BrowserContext, Page } from 'playwright-core';

import { launchChromium, screenshot, seriousA11yViolations } from './console/browser';
import { EmbeddedPlatform, startEmbeddedPlatform } from './console/embedded-platform';
import { GovernedWorld, REVIEW_POLICY, governedWorld } from './console/governed-world';

const BROKEN = REVIEW_POLICY.replace(
  '} else := {"action": "LOG"}',
  '} else := {"action": "LOG"\n\nbroken rule here',
);
const FIXED = REVIEW_POLICY.replace('"needs a human"', '"a person must look at this"');

/**
 * Issue 16, as a person uses it: the console served by `npm start`, signed in to through
 * tenant-auth's OpenID Connect flow in a real Chromium; a held message decided, a blocked hop
 * traced, a policy fixed, published, tested and rolled out. Few and sturdy: one browser, one
 * platform, one page walked through in order.
 */
describe('console in a browser', () => {
  let platform: EmbeddedPlatform;
  let world: GovernedWorld;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name });

  beforeAll(async () => {
    platform = await startEmbeddedPlatform();
    world = await governedWorld(platform.url, platform.admin);
    browser = await launchChromium();
    // axe is injected as a script: only the test's context sets the console's CSP aside.
    context = await browser.newContext({ viewport: { width: 1280, height: 860 }, bypassCSP: true });
    page = await context.newPage();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await world?.close();
    await platform?.stop();
  });

  it('should send a visitor to the sign-in page and, signed in, show the overview', async () => {
    await page.goto(platform.url);
    await page.waitForURL(/\/tenant-auth\/v1\/oauth\/authorize\?/);
    await screenshot(page, 'sign-in');

    await page.getByLabel('Organisation').first().fill(platform.admin.tenant);
    await page.getByLabel('E-mail', { exact: true }).fill(platform.admin.email);
    await page.getByLabel('Password').fill(platform.admin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'overview');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('should keep tokens out of web storage and its cookies HttpOnly and SameSite', async () => {
    const storage = await page.evaluate(() => {
      // Runs in the page (this file is compiled without the DOM's types).
      const web = globalThis as unknown as Record<'localStorage' | 'sessionStorage', object>;
      return JSON.stringify({ ...web.localStorage, ...web.sessionStorage });
    });
    const cookies = await context.cookies();

    expect(storage).not.toMatch(/eyJ|agp_rt_/);
    expect(cookies.map((c) => c.name)).toContain('agp_session');
    for (const cookie of cookies) {
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/tenant-auth/v1' });
    }
  });

  it('should approve a held message with a note, and the waiting call goes through', async () => {
    const held = world.echo('needs-review please');
    await nav('Human review').click();

    // The queue polls every 10 s; the hold may arrive just after the page first asked.
    const row = page.getByRole('button', { name: /\d/ }).first();
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    await page.getByText('needs a human').waitFor();
    await page.getByLabel('Note').fill('checked with the customer');
    await screenshot(page, 'human-review');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Approve' }).click();

    expect(await held).toContain('needs-review please');
    expect(await world.holds()).toEqual([
      expect.objectContaining({ status: 'RELEASED', note: 'checked with the customer' }),
    ]);
  });

  it('should find a blocked hop in the audit and open its trace', async () => {
    expect(await world.echo('forbidden words here')).toMatch(/blocked/i);
    await nav('Audit').click();

    // Each attempt makes sure of the filter (a re-render may have reset it while the hop's audit
    // event was on its way); choosing the chosen option again would clear it.
    const action = page.getByRole('combobox', { name: 'Action' });
    await expectEventually(async () => {
      if ((await action.inputValue()) !== 'BLOCK') {
        await action.click();
        await page.getByRole('option', { name: 'BLOCK', exact: true }).click();
      }
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByRole('link', { name: 'Trace' }).first().waitFor({ timeout: 4_000 });
    });
    await screenshot(page, 'audit');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Trace' }).first().click();

    await page.getByRole('heading', { name: 'Trace' }).waitFor();
    await page.getByText('BLOCK', { exact: true }).first().waitFor();
    await screenshot(page, 'trace');
  });

  it('should show a compile error at its line, then publish the fix, diff, test it and move the binding', async () => {
    await nav('Policies').click();
    await page.getByRole('navigation', { name: 'Policy groups' }).getByText('guardrails').click();
    await page.getByRole('tab', { name: 'New version' }).click();
    const editor = page.locator('.cm-content');
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(BROKEN);
    await page.getByRole('button', { name: 'Publish version' }).click();

    await page.getByText(/compile error/).waitFor();
    await page.locator('.cm-lintRange-error').first().waitFor();
    await screenshot(page, 'policy-compile-error');
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(FIXED);
    await page.getByRole('button', { name: 'Publish version' }).click();
    await page.getByText('Published version 2.').waitFor();

    await page.getByRole('tab', { name: 'Versions' }).click();
    await page.getByLabel('Compare version 1').check();
    await page.getByLabel('Compare version 2').check();
    await page.getByText('a person must look at this').waitFor();
    await screenshot(page, 'policy-diff');

    await page.getByRole('tab', { name: 'Test' }).click();
    await page.getByRole('button', { name: 'Run test' }).click();
    await page.getByText('Decision', { exact: true }).waitFor();

    await page.getByRole('tab', { name: 'Bindings' }).click();
    await page.getByText('newer exists').waitFor();
    await page.getByRole('button', { name: 'Move' }).click();
    await page.getByText('latest', { exact: true }).waitFor();
    await screenshot(page, 'policy-bindings');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('should list alerts with their filters', async () => {
    await nav('Alerts').click();

    await page.getByRole('heading', { name: 'Alerts' }).waitFor();
    await page
      .getByText(/No alerts match these filters|Acknowledge/)
      .first()
      .waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'alerts');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('should come back signed in after a reload, without the sign-in page', async () => {
    await page.reload();

    await page.getByRole('heading', { name: 'Alerts' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/alerts');
  });

  it('should sign out and ask for the password again', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();

    await page.waitForURL(/\/tenant-auth\/v1\/oauth\/authorize\?/);
    await page.getByLabel('Password').waitFor();
    expect((await context.cookies()).map((c) => c.name)).not.toContain('agp_session');
  });
});

/** Retries a step that waits on the platform (events reach the audit asynchronously). */
async function expectEventually(step: () => Promise<void>, attempts = 15): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await step();
      return;
    } catch (error) {
      if (attempt >= attempts) {
        throw error;
      }
    }
  }
}
