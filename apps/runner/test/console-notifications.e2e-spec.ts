import { Browser, Page } from 'playwright-core';
import { ReceivedWebhook, WebhookReceiver, eventually } from '@agp/testing';

import { launchChromium, screenshot, seriousA11yViolations } from './console/browser';
import { EmbeddedPlatform, startEmbeddedPlatform } from './console/embedded-platform';
import { GovernedWorld, governedWorld } from './console/governed-world';

const SIGN_IN_PAGE = /\/tenant-auth\/v1\/oauth\/authorize\?/;

/**
 * Issue 34 § 3 as a person uses it: a webhook target added under Administration (its signing
 * secret shown once), a held MCP call notified to it, the notice's link opening the hold in the
 * console where it is approved, and the delivery listed as delivered; axe on each step, no
 * overflow at 768 px.
 */
describe('console: notifications in a browser', () => {
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

  it('should add a webhook target, notify it of a hold whose link opens the hold, and list the delivery', async () => {
    await page.goto(`${platform.url}/admin`);
    await page.waitForURL(SIGN_IN_PAGE);
    await page.getByLabel('Organisation').first().fill(platform.admin.tenant);
    await page.getByLabel('E-mail', { exact: true }).fill(platform.admin.email);
    await page.getByLabel('Password').fill(platform.admin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Administration' }).waitFor();
    await page.getByRole('tab', { name: 'Notifications', exact: true }).click();
    await page.getByText('No notification targets yet.').waitFor();

    await page.getByLabel('Target name').fill('reviewers-hook');
    await page.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: 'Webhook (Standard Webhooks)' }).click();
    await page.getByLabel('Webhook URL').fill(receiver.url('console'));
    await checkPage('notifications-form');
    await page.getByRole('button', { name: 'Add target' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/^whsec_/).waitFor();
    await checkPage('notifications-secret');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('cell', { name: 'reviewers-hook', exact: true }).waitFor();

    const held = world.echo('needs-review from the notification');
    const [notice] = await eventually(() => {
      const got = receiver.of('console');
      expect(got).toHaveLength(1);
      return got;
    }, 1_200);
    const { data } = notice.body as unknown as ReceivedWebhook['body'] & {
      data: { hitlRequestId: string; link: string };
    };
    expect(notice.headers['webhook-signature']).toMatch(/^v1,/);
    expect(data.link).toBe(`${platform.url}/review/${data.hitlRequestId}`);
    expect(notice.raw.toString('utf8')).not.toContain('needs-review from the notification');

    await page.goto(data.link);
    await page.getByText('needs a human').waitFor();
    await page.getByText('needs-review from the notification').waitFor();
    await checkPage('notifications-linked-hold');
    await page.getByRole('button', { name: 'Approve' }).click();
    expect(await held).toContain('needs-review from the notification');

    await page.goto(`${platform.url}/admin`);
    await page.getByRole('tab', { name: 'Notifications', exact: true }).click();
    await page.getByRole('button', { name: 'Deliveries of reviewers-hook' }).click();
    const deliveries = page.getByRole('table', { name: 'Deliveries to reviewers-hook' });
    await deliveries.getByText('DELIVERED').waitFor();
    await deliveries.getByText('HITL_REQUEST_CREATED').waitFor();
    await checkPage('notifications-deliveries');
  });

  it('should fit a tablet: the notifications tab no wider than the screen', async () => {
    await page.setViewportSize({ width: 768, height: 1024 });
    await page.goto(`${platform.url}/admin`);
    await page.getByRole('tab', { name: 'Notifications', exact: true }).click();
    await page.getByRole('button', { name: 'Deliveries of reviewers-hook' }).click();
    await page.getByRole('table', { name: 'Deliveries to reviewers-hook' }).waitFor();
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
    await checkPage('notifications-tablet');
  });
});
