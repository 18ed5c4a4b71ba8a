import OpenAI from 'openai';
import { Browser, Page } from 'playwright-core';

import { OpenAiTestProvider, eventually, startOpenAiTestProvider } from '@agp/testing';

import { launchChromium, screenshot, seriousA11yViolations } from './console/browser';
import { EmbeddedPlatform, startEmbeddedPlatform } from './console/embedded-platform';
import { call, tokenOf } from './console/governed-world';

const SIGN_IN_PAGE = /\/tenant-auth\/v1\/oauth\/authorize\?/;

/**
 * Issue 41 § 4, as a finance person uses it: the console served by `npm start` (PGlite), an
 * agent's two priced LLM calls shown as the day's spend, broken down by agent and by model, and
 * the agent's budget with what it has used.
 */
describe('console: spend in a browser', () => {
  let platform: EmbeddedPlatform;
  let upstream: OpenAiTestProvider;
  let browser: Browser;
  let page: Page;
  let agentId: string;

  beforeAll(async () => {
    platform = await startEmbeddedPlatform();
    upstream = await startOpenAiTestProvider({
      usage: () => ({ prompt_tokens: 1000, completion_tokens: 200, total_tokens: 1200 }),
    });
    const base = platform.url;
    const token = await tokenOf(base, {
      grant_type: 'password',
      tenant: platform.admin.tenant,
      username: platform.admin.email,
      password: platform.admin.password,
    });
    const agent = await call<{ id: string; clientSecret: string }>(
      base,
      token,
      'POST',
      '/tenant-auth/v1/agents',
      { name: 'spending-agent' },
    );
    agentId = agent.id;
    await eventually(async () => call(base, token, 'GET', `/relay/v1/agents/${agent.id}`));
    const provider = await call<{ id: string }>(base, token, 'POST', '/relay/v1/llm-providers', {
      name: 'priced-provider',
      baseUrl: upstream.baseUrl,
    });
    const gateway = await call<{ id: string }>(base, token, 'POST', '/relay/v1/llm-gateways', {
      name: 'priced-gateway',
      providers: [provider.id],
    });
    await call(base, token, 'POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_LLM_GATEWAY',
      sourceId: agent.id,
      targetId: gateway.id,
    });
    // 1000 × 2.5 + 200 × 10 = 4500 per million: 0.0045 a call.
    await call(base, token, 'POST', '/relay/v1/model-prices', {
      model: 'test-model',
      currency: 'USD',
      inputPerMillion: '2.5',
      outputPerMillion: '10',
    });
    await call(base, token, 'POST', '/relay/v1/budgets', {
      scope: 'AGENT',
      targetId: agent.id,
      period: 'MONTH',
      unit: 'USD',
      hardLimit: '5',
    });
    const llm = new OpenAI({
      baseURL: `${base}/relay/llm/${gateway.id}/v1`,
      apiKey: await tokenOf(base, {
        grant_type: 'client_credentials',
        client_id: agent.id,
        client_secret: agent.clientSecret,
        scope: 'mcp:call',
      }),
      maxRetries: 0,
    });
    for (const content of ['first question', 'second question']) {
      await llm.chat.completions.create({
        model: 'test-model',
        messages: [{ role: 'user', content }],
      });
    }
    await eventually(async () => {
      const spend = await call<{ totals: { llmCalls: number } }>(
        base,
        token,
        'GET',
        '/relay/v1/spend',
      );
      expect(spend.totals.llmCalls).toBe(2);
    });
    browser = await launchChromium();
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      bypassCSP: true,
      reducedMotion: 'reduce',
    });
    page = await context.newPage();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await upstream?.close();
    await platform?.stop();
  });

  it('should show the day’s LLM costs, their breakdown by agent and by model, and the budget they used', async () => {
    await page.goto(platform.url);
    await page.waitForURL(SIGN_IN_PAGE);
    await page.getByLabel('Organisation').first().fill(platform.admin.tenant);
    await page.getByLabel('E-mail', { exact: true }).fill(platform.admin.email);
    await page.getByLabel('Password').fill(platform.admin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page
      .getByRole('navigation', { name: 'Pages' })
      .getByRole('link', { name: 'Spend' })
      .click();
    await page.getByRole('heading', { name: 'Spend', exact: true }).waitFor();

    const totals = page.getByLabel('Totals');
    await totals.getByText('$0.009').first().waitFor();
    expect(await totals.innerText()).toContain('2400 (2 calls, 0 unpriced)');
    const breakdown = page.getByRole('table', { name: 'Spend breakdown' });
    await breakdown.getByText(agentId).waitFor();
    expect(await breakdown.getByRole('row').nth(1).innerText()).toContain('$0.009');
    await screenshot(page, 'spend-by-agent');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('combobox', { name: 'Group by' }).click();
    await page.getByRole('option', { name: 'Model', exact: true }).click();
    await breakdown.getByText('test-model').waitFor();
    const budgets = page.getByRole('table', { name: 'Budgets' });
    const budget = await budgets.getByRole('row').nth(1).innerText();
    expect(budget).toContain(`AGENT ${agentId}`);
    expect(budget).toContain('0.009 USD');
    await screenshot(page, 'spend-by-model');
  });
});
