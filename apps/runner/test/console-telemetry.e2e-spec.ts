import { randomBytes, randomUUID } from 'node:crypto';

import { Browser, Page } from 'playwright-core';

import { launchChromium, screenshot, seriousA11yViolations } from './console/browser';
import { EmbeddedPlatform, startEmbeddedPlatform } from './console/embedded-platform';
import { tokenOf } from './console/governed-world';

const SIGN_IN_PAGE = /\/tenant-auth\/v1\/oauth\/authorize\?/;

/**
 * OTLP/JSON of one agent turn: a root span, a failed tool call under it with the relay's blocked
 * hop of it (as the relay records it, traffic.md T91), and a log in the call.
 */
function agentTurn(traceId: string, correlationId: string): { traces: object; logs: object } {
  const root = randomBytes(8).toString('hex');
  const child = randomBytes(8).toString('hex');
  const hop = randomBytes(8).toString('hex');
  const text = (key: string, value: string) => ({ key, value: { stringValue: value } });
  const t0 = BigInt(Date.now()) * 1_000_000n;
  const at = (ms: number): string => String(t0 + BigInt(ms) * 1_000_000n);
  const resource = {
    attributes: [{ key: 'service.name', value: { stringValue: 'support-agent' } }],
  };
  const span = (spanId: string, name: string, from: number, to: number, extra: object) => ({
    traceId,
    spanId,
    name,
    kind: 1,
    startTimeUnixNano: at(from),
    endTimeUnixNano: at(to),
    ...extra,
  });
  return {
    traces: {
      resourceSpans: [
        {
          resource,
          scopeSpans: [
            {
              spans: [
                span(root, 'invoke_agent support', 0, 40, {}),
                span(child, 'execute_tool refund', 10, 30, {
                  parentSpanId: root,
                  status: { code: 2, message: 'refund tool failed' },
                }),
              ],
            },
          ],
        },
        {
          resource: { attributes: [text('service.name', 'agp-relay')] },
          scopeSpans: [
            {
              spans: [
                span(hop, 'tools/call refund', 12, 14, {
                  parentSpanId: child,
                  attributes: [
                    text('mcp.method.name', 'tools/call'),
                    text('agp.decision.action', 'BLOCK'),
                    text('agp.correlation_id', correlationId),
                  ],
                }),
              ],
            },
          ],
        },
      ],
    },
    logs: {
      resourceLogs: [
        {
          resource,
          scopeLogs: [
            {
              logRecords: [
                {
                  timeUnixNano: at(20),
                  severityNumber: 17,
                  severityText: 'ERROR',
                  body: { stringValue: 'refund service answered 502' },
                  traceId,
                  spanId: child,
                },
              ],
            },
          ],
        },
      ],
    },
  };
}

/**
 * Issue 37 item 5, as a person uses it: the console served by `npm start` (PGlite), an agent's
 * exported trace found from its error log, shown as a waterfall of its spans.
 */
describe('console: agent telemetry in a browser', () => {
  let platform: EmbeddedPlatform;
  let browser: Browser;
  let page: Page;
  const traceId = randomBytes(16).toString('hex');
  const correlationId = randomUUID();

  beforeAll(async () => {
    platform = await startEmbeddedPlatform();
    const token = await tokenOf(platform.url, {
      grant_type: 'password',
      tenant: platform.admin.tenant,
      username: platform.admin.email,
      password: platform.admin.password,
    });
    const turn = agentTurn(traceId, correlationId);
    for (const [signal, body] of [
      ['traces', turn.traces],
      ['logs', turn.logs],
    ] as const) {
      const response = await fetch(`${platform.url}/audit/v1/telemetry/v1/${signal}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
    }
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
    await platform?.stop();
  });

  it('should find the agent’s error log and open its trace as a waterfall of spans', async () => {
    await page.goto(platform.url);
    await page.waitForURL(SIGN_IN_PAGE);
    await page.getByLabel('Organisation').first().fill(platform.admin.tenant);
    await page.getByLabel('E-mail', { exact: true }).fill(platform.admin.email);
    await page.getByLabel('Password').fill(platform.admin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page
      .getByRole('navigation', { name: 'Pages' })
      .getByRole('link', { name: 'Telemetry' })
      .click();
    await page.getByRole('heading', { name: 'Telemetry' }).waitFor();

    await page.getByRole('combobox', { name: 'Least severity' }).click();
    await page.getByRole('option', { name: 'ERROR', exact: true }).click();
    await page.getByRole('button', { name: 'Search' }).click();
    const logs = page.getByRole('table', { name: 'Log records' });
    await logs.getByText('refund service answered 502').waitFor();
    await screenshot(page, 'telemetry-logs');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await logs.getByRole('link', { name: traceId.slice(0, 8) }).click();
    await page.getByRole('heading', { name: 'Agent trace' }).waitFor();
    const spans = page.getByRole('table', { name: 'Spans' });
    await spans.getByText('execute_tool refund').waitFor();
    const rows = await spans.getByRole('row').allInnerTexts();
    expect(rows.slice(1).map((row) => row.split('\n')[0]?.trim())).toEqual([
      'invoke_agent support',
      'execute_tool refund',
      'tools/call refund',
    ]);
    expect(rows[2]).toContain('ERROR');
    // The relay's hop shows its decision, linked to the hop's conversation in the audit trail.
    const decision = spans.getByRole('link', { name: 'BLOCK: audit trail of tools/call refund' });
    expect(await decision.getAttribute('href')).toBe(`/audit/traces/${correlationId}`);
    await screenshot(page, 'telemetry-trace');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
