import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { BearerForwarder, startBearerForwarder } from './conformance/bearer-forwarder';
import { CheckResult, runServerSuite } from './conformance/conformance-run';
import { KnownException, compare, isPassed, markdownOf } from './conformance/conformance-table';
import { ReferenceServer, startReferenceServer } from './conformance/reference-server';
import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { LOG_POLICY } from './mcp/mcp-policies';
import { McpWorld } from './mcp/mcp-world';

/** Checks that pass directly and not through the relay, each with why (issue 35 item 2). */
const KNOWN_EXCEPTIONS: readonly KnownException[] = [];

const SUITE_VERSION = (
  JSON.parse(
    readFileSync(require.resolve('@modelcontextprotocol/conformance/package.json'), 'utf8'),
  ) as { version: string }
).version;
const TABLE = join(__dirname, '..', '..', '..', 'docs', 'mcp-conformance.md');

/**
 * Issue 35 item 2: the official MCP conformance suite, server scenarios, `--suite all` (the
 * 2025-11-25 session wire and the 2026-07-28 stateless one), against its reference server directly
 * and through `/relay/mcp/{serverId}` with a LOG policy bound. The table goes to
 * docs/mcp-conformance.md; a check lost through the relay fails unless it is a listed exception.
 */
/** As `prettier --check .` wants it, so the file the run writes passes the format check. */
async function writeTable(markdown: string): Promise<void> {
  await writeFile(TABLE, markdown);
  // Prettier's API loads itself with a dynamic import, which Jest's CommonJS runtime refuses.
  const prettier = spawnSync(
    process.execPath,
    [require.resolve('prettier/bin/prettier.cjs'), '--write', TABLE],
    { encoding: 'utf8' },
  );
  if (prettier.status !== 0) {
    throw new Error(`prettier could not format ${TABLE}: ${prettier.stderr}`);
  }
}

describe('MCP conformance through the relay', () => {
  let platform: McpPlatform;
  let reference: ReferenceServer;
  let forwarder: BearerForwarder;
  let direct: CheckResult[];
  let relayed: CheckResult[];

  beforeAll(async () => {
    reference = await startReferenceServer();
    platform = await startMcpPlatform('embedded');
    const world = await McpWorld.create(platform);
    const serverId = await world.mcpServer(reference.url);
    const agent = await world.agent();
    await world.subscribe(agent.id, serverId);
    await world.bindToAgent(agent.id, LOG_POLICY);
    forwarder = await startBearerForwarder(world.mcpUrl(serverId), agent.mcpToken);
    // T85: the suite's client comes from the forwarder's origin, which this tenant allows.
    await world.ok('PATCH', '/relay/v1/traffic-settings', {
      allowedOrigins: [new URL(forwarder.url).origin],
    });
    direct = await runServerSuite(reference.url);
    relayed = await runServerSuite(forwarder.url);
    // Two runs of 65 scenarios, each under the suite's own 30 s timeout per scenario.
  }, 600_000);

  afterAll(async () => {
    await forwarder?.close();
    await platform?.close();
    await reference?.close();
  });

  it('should pass through the relay every check that passes directly, but for the listed exceptions, and write the table', async () => {
    const comparison = compare(direct, relayed, KNOWN_EXCEPTIONS);
    await writeTable(
      markdownOf(comparison, KNOWN_EXCEPTIONS, {
        suiteVersion: SUITE_VERSION,
        command: 'conformance server --url <url> --suite all',
      }),
    );

    expect(direct.filter((c) => isPassed(c.status)).length).toBeGreaterThan(100);
    expect(comparison.lost).toEqual([]);
    expect(comparison.stale).toEqual([]);
  });
});
