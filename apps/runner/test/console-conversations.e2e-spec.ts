import { Browser, Page } from 'playwright-core';
import { WebhookReceiver } from '@agp/testing';

import { launchChromium, screenshot, seriousA11yViolations } from './console/browser';
import { EmbeddedPlatform, startEmbeddedPlatform } from './console/embedded-platform';
import { GovernedWorld, call, governedWorld } from './console/governed-world';

const SIGN_IN_PAGE = /\/tenant-auth\/v1\/oauth\/authorize\?/;

/**
 * Issue 34 § 1 as a person uses it: a channel added (its signing secret shown once), an agent's
 * MCP calls listed as a conversation and read hop by hop with their decisions and captured
 * content, an operator's message refused where the protocol cannot carry it (CV13); axe on each
 * step, no overflow at 768 px.
 */
describe('console: conversations and channels in a browser', () => {
  let platform: EmbeddedPlatform;
  let world: GovernedWorld;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let page: Page;

  const checkPage = async (name: string) => {
    await screenshot(page, name);
    expect(await seriousA11yViolations(page)).toEqual([]);
  };

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    platform = await startEmbeddedPlatform();
    world = await governedWorld(platform.url, platform.admin);
    browser = await launchChromium();
    const context = await browser.newContext({
      viewport: { width: 1280, height: 860 },
      bypassCSP: true,
      reducedMotion: 'reduce',
    });
    page = await context.newPage();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await world?.close();
    await platform?.stop();
    await receiver?.close();
  });

  it('should add a webhook channel and show its signing secret once', async () => {
    await page.goto(`${platform.url}/channels`);
    await page.waitForURL(SIGN_IN_PAGE);
    await page.getByLabel('Organisation').first().fill(platform.admin.tenant);
    await page.getByLabel('E-mail', { exact: true }).fill(platform.admin.email);
    await page.getByLabel('Password').fill(platform.admin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Channels' }).waitFor();
    await page.getByText('No channels yet.').waitFor();

    await page.getByLabel('Channel name').fill('support-hook');
    await page.getByLabel('Reply address').fill(receiver.url('channel'));
    await checkPage('channels-form');
    await page.getByRole('button', { name: 'Add' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/^whsec_/).waitFor();
    await checkPage('channels-secret');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('cell', { name: 'support-hook', exact: true }).waitFor();
    await checkPage('channels-list');
  });

  it('should list an agent’s MCP calls as a conversation and read it hop by hop', async () => {
    // D40: the tenant captures content, so the conversation shows it (masked) beside its digest.
    await call(platform.url, world.token, 'PATCH', '/relay/v1/traffic-settings', {
      contentCapture: true,
    });
    await call(platform.url, world.token, 'PUT', '/audit/v1/retention', { captureContent: true });
    await world.echo('first words of the conversation');

    await page.goto(`${platform.url}/conversations`);
    await page.getByRole('heading', { name: 'Conversations' }).waitFor();
    const table = page.getByRole('table', { name: 'Conversations' });
    const session = table.getByRole('row').filter({ hasText: 'MCP session' }).first();
    await session.waitFor({ timeout: 20_000 });
    await checkPage('conversations-list');
    await session.getByRole('link').click();
    await page.getByRole('heading', { name: 'Conversation' }).waitFor();
    await page.getByText('REQUEST · MCP · echo').waitFor();
    await page.getByText('RESPONSE · MCP · echo').waitFor();
    await page
      .getByText(/first words of the conversation/)
      .first()
      .waitFor();
    await checkPage('conversation-read');

    await page.getByLabel('Message from an operator').fill('hello from an operator');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText(/MCP carries only what the client asks for/).waitFor();
    await checkPage('conversation-operator-refused');
  });

  it('should fit a tablet: the conversation no wider than the screen', async () => {
    await page.setViewportSize({ width: 768, height: 1024 });
    await page.reload();
    await page.getByText('REQUEST · MCP · echo').waitFor();
    await page.waitForLoadState('networkidle');
    const overflow = await page.evaluate(() => {
      const { documentElement: root } = (
        globalThis as unknown as {
          document: { documentElement: { scrollWidth: number; clientWidth: number } };
        }
      ).document;
      return root.scrollWidth - root.clientWidth;
    });
    expect(overflow).toBe(0);
    await checkPage('conversation-tablet');
  });
});
