import { Browser, BrowserContext, Page } from 'playwright-core';

import { launchChromium, screenshot } from './console/browser';
import { EmbeddedPlatform, startEmbeddedPlatform } from './console/embedded-platform';

/**
 * Issue 16, as a person uses it: the console served by `npm start`, signed in to through
 * tenant-auth's OpenID Connect flow in a real Chromium. Few and sturdy: one browser, one platform.
 */
describe('console in a browser', () => {
  let platform: EmbeddedPlatform;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    platform = await startEmbeddedPlatform();
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    page = await context.newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
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
    await page.getByText('Pending human reviews').waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'overview');
  });

  it('should keep tokens out of web storage and its cookies HttpOnly and SameSite', async () => {
    const storage = await page.evaluate(() =>
      JSON.stringify({ ...localStorage, ...sessionStorage }),
    );
    const cookies = await context.cookies();

    expect(storage).not.toMatch(/eyJ|agp_rt_/);
    expect(cookies.map((c) => c.name)).toContain('agp_session');
    for (const cookie of cookies) {
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/tenant-auth/v1' });
    }
  });

  it('should list alerts with their filters', async () => {
    await page
      .getByRole('navigation', { name: 'Pages' })
      .getByRole('link', { name: 'Alerts' })
      .click();

    await page.getByRole('heading', { name: 'Alerts' }).waitFor();
    await page
      .getByText(/No alerts match these filters|Acknowledge/)
      .first()
      .waitFor();
    await screenshot(page, 'alerts');
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
