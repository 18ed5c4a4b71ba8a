import { Browser, Page } from 'playwright-core';

import { McpTestServer, startMcpTestServer } from '@agp/testing';

import { launchChromium, screenshot, seriousA11yViolations } from './console/browser';
import { EmbeddedPlatform, startEmbeddedPlatform } from './console/embedded-platform';
import { call, tokenOf } from './console/governed-world';

const SIGN_IN_PAGE = /\/tenant-auth\/v1\/oauth\/authorize\?/;
const BUYER = { tenant: 'buyer', email: 'admin@buyer.example', password: 'buyer-password-1' };

/**
 * Issue 40's console pages as both sides use them: the console served by `npm start` (PGlite);
 * the default tenant finds its MCP server in Discovery and publishes it in the Marketplace, a
 * second tenant finds the listing and installs it, the publisher suspends the installation and
 * the installer sees it suspended and removes it.
 */
describe('console: discovery and the marketplace in a browser', () => {
  let platform: EmbeddedPlatform;
  let tools: McpTestServer;
  let browser: Browser;
  let publisher: Page;
  let installer: Page;

  beforeAll(async () => {
    platform = await startEmbeddedPlatform();
    tools = await startMcpTestServer();
    const base = platform.url;
    const token = await tokenOf(base, {
      grant_type: 'password',
      tenant: platform.admin.tenant,
      username: platform.admin.email,
      password: platform.admin.password,
    });
    await call(base, token, 'POST', '/relay/v1/mcp-servers', {
      name: 'crm-tools',
      description: 'Looks up CRM customers and their orders',
      url: tools.url,
      transport: 'STREAMABLE_HTTP',
      visibility: 'PUBLIC', // MK40: only a PUBLIC server is published
    });
    await call(base, token, 'POST', '/tenant-auth/v1/tenants', {
      slug: BUYER.tenant,
      name: 'Buyer',
      adminEmail: BUYER.email,
      adminPassword: BUYER.password,
    });
    browser = await launchChromium();
    const page = async (): Promise<Page> => {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        bypassCSP: true,
        reducedMotion: 'reduce',
      });
      return context.newPage();
    };
    publisher = await page();
    installer = await page();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await tools?.close();
    await platform?.stop();
  });

  async function signIn(page: Page, who: { tenant: string; email: string; password: string }) {
    await page.goto(platform.url);
    await page.waitForURL(SIGN_IN_PAGE);
    await page.getByLabel('Organisation').first().fill(who.tenant);
    await page.getByLabel('E-mail', { exact: true }).fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
  }

  async function open(page: Page, pageName: string, tab: string): Promise<void> {
    await page
      .getByRole('navigation', { name: 'Pages' })
      .getByRole('link', { name: pageName })
      .click();
    await page.getByRole('heading', { name: pageName, exact: true }).waitFor();
    await page.getByRole('tab', { name: tab, exact: true }).click();
  }

  async function choose(page: Page, label: string, option: string): Promise<void> {
    await page.getByRole('combobox', { name: label, exact: true }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  }

  it('should find a server, publish it, install it in another tenant, suspend and remove the installation', async () => {
    await signIn(publisher, platform.admin);
    await open(publisher, 'Discovery', 'MCP servers');
    await publisher.getByLabel('Search', { exact: true }).fill('customers');
    await publisher.getByRole('button', { name: 'Search', exact: true }).click();
    const found = publisher.getByRole('table', { name: 'MCP servers found' });
    await found.getByText('crm-tools').waitFor();
    expect(await found.innerText()).toContain('/relay/mcp/');
    expect(await seriousA11yViolations(publisher)).toEqual([]);
    await screenshot(publisher, 'discovery-mcp-servers');

    await open(publisher, 'Marketplace', 'My listings');
    await choose(publisher, 'Target', 'crm-tools');
    await publisher.getByLabel('Listing name').fill('CRM lookup');
    await publisher.getByLabel('Summary').fill('Finds customers and their orders');
    await publisher.getByLabel('Category').fill('crm');
    await publisher.getByRole('button', { name: 'Publish', exact: true }).click();
    const mine = publisher.getByRole('table', { name: 'My listings' });
    await mine.getByText('CRM lookup').waitFor();
    expect(await mine.innerText()).toContain('PUBLISHED');

    await signIn(installer, BUYER);
    await open(installer, 'Marketplace', 'Browse');
    await installer.getByRole('textbox', { name: 'Search listings' }).fill('customer orders');
    await installer.getByRole('button', { name: 'Search', exact: true }).click();
    const listings = installer.getByRole('table', { name: 'Listings' });
    await listings.getByText('CRM lookup').waitFor();
    await installer.getByRole('button', { name: 'Install CRM lookup' }).click();
    await listings.getByText('installed', { exact: true }).waitFor();
    await installer.getByRole('tab', { name: 'My installations', exact: true }).click();
    const installed = installer.getByRole('table', { name: 'My installations' });
    await installed.getByText('CRM lookup').waitFor();
    expect(await installed.innerText()).toContain('ACTIVE');
    await installed.getByText('none', { exact: true }).waitFor();
    expect(await seriousA11yViolations(installer)).toEqual([]);
    await screenshot(installer, 'marketplace-installations');

    await publisher.getByRole('tab', { name: 'Installations of my listings', exact: true }).click();
    await publisher.getByRole('button', { name: `Suspend CRM lookup for ${BUYER.tenant}` }).click();
    const theirs = publisher.getByRole('table', { name: 'Installations of my listings' });
    await theirs.getByText('SUSPENDED').waitFor();

    await installer.reload();
    await installer.getByRole('tab', { name: 'My installations', exact: true }).click();
    await installed.getByText('SUSPENDED').waitFor();
    await installer.getByRole('button', { name: 'Remove CRM lookup' }).click();
    await installer.getByText('Nothing installed from the marketplace.').waitFor();
  });
});
