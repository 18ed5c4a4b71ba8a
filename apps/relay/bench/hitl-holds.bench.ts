import { readdirSync, readFileSync } from 'node:fs';

import { startMcpTestServer } from '@agp/testing';

import { api, arrangeTenant, startBenchPlatform } from './mcp/bench-platform';
import { McpSessionClient } from './mcp/mcp-load';

const HOLDS = Number(process.env.BENCH_HOLDS ?? 1_000);

const HOLD_POLICY = `package bench.hold
import rego.v1
decision := {"action": "HUMAN_REVIEW_REQUIRED", "reasons": ["reviewer needed"]} if {
	input.direction == "REQUEST"
	input.tool.name == "echo"
}`;

/** Resident memory (MiB) and open file descriptors of a process, from /proc. */
function footprint(pid: number): { rssMiB: number; fds: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKiB = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
  return {
    rssMiB: Math.round((rssKiB / 1024) * 10) / 10,
    fds: readdirSync(`/proc/${pid}/fd`).length,
  };
}

/**
 * Issue 12: 1,000 calls held at once on one relay replica (through the gateway), every one
 * approved and released; the relay's memory and open handles before, while they wait, and after.
 */
async function main(): Promise<void> {
  const tools = await startMcpTestServer({ jsonResponse: true, record: false });
  const bench = await startBenchPlatform('hitl');
  try {
    const tenant = await arrangeTenant(bench, tools.url, [HOLD_POLICY]);
    await api(bench.gatewayUrl, tenant.adminToken, 'PATCH', '/relay/v1/traffic-settings', {
      hitlWaitSeconds: 300,
    });
    const relayPid = bench.services.find((s) => s.name === 'relay')!.child.pid!;
    const client = new McpSessionClient(
      new URL(`${bench.gatewayUrl}/relay/mcp/${tenant.serverId}`),
      tenant.mcpToken,
      HOLDS + 16,
    );
    await client.initialize();
    const before = footprint(relayPid);

    const started = Date.now();
    const calls = Array.from({ length: HOLDS }, (_v, i) =>
      client.callTool('echo', { text: `held ${i}` }).then(
        () => 'released' as const,
        (error: unknown) => `failed: ${String(error)}`,
      ),
    );
    let pending: Array<{ id: string }> = [];
    for (let i = 0; i < 600 && pending.length < HOLDS; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const page = await api<{ total: number }>(
        bench.gatewayUrl,
        tenant.adminToken,
        'GET',
        '/relay/v1/hitl-requests?status=PENDING&pageSize=1',
      );
      pending = Array.from({ length: page.total }, () => ({ id: '' }));
    }
    const heldAfterMs = Date.now() - started;
    const during = footprint(relayPid);

    const ids: string[] = [];
    for (let page = 1; ids.length < HOLDS; page += 1) {
      const answer = await api<{ items: Array<{ id: string }> }>(
        bench.gatewayUrl,
        tenant.adminToken,
        'GET',
        `/relay/v1/hitl-requests?status=PENDING&pageSize=100&page=${page}`,
      );
      if (answer.items.length === 0) {
        break;
      }
      ids.push(...answer.items.map((item) => item.id));
    }
    const approving = Date.now();
    for (let i = 0; i < ids.length; i += 32) {
      await Promise.all(
        ids
          .slice(i, i + 32)
          .map((id) =>
            api(
              bench.gatewayUrl,
              tenant.adminToken,
              'POST',
              `/relay/v1/hitl-requests/${id}/approve`,
              {},
            ),
          ),
      );
    }
    const outcomes = await Promise.all(calls);
    const releasedAfterMs = Date.now() - approving;
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const after = footprint(relayPid);
    // Past the keep-alive of the gateway's idle connections (30 s) and a few collections.
    await new Promise((resolve) => setTimeout(resolve, 60_000));
    const settled = footprint(relayPid);
    const released = outcomes.filter((o) => o === 'released').length;
    const left = await api<{ total: number }>(
      bench.gatewayUrl,
      tenant.adminToken,
      'GET',
      '/relay/v1/hitl-requests?status=RELEASED&pageSize=1',
    );

    console.log(
      `\n${HOLDS} concurrent held tools/call on one relay replica (through the gateway)\n`,
    );
    console.log('| moment | relay RSS (MiB) | relay open fds |');
    console.log('| --- | ---: | ---: |');
    console.log(`| before | ${before.rssMiB} | ${before.fds} |`);
    console.log(`| all ${HOLDS} held and waiting | ${during.rssMiB} | ${during.fds} |`);
    console.log(`| all released, 5 s later | ${after.rssMiB} | ${after.fds} |`);
    console.log(`| 65 s later | ${settled.rssMiB} | ${settled.fds} |`);
    console.log(
      `\nheld within ${heldAfterMs} ms; ${ids.length} approved; every caller answered ${releasedAfterMs} ms after the first approval`,
    );
    console.log(
      `outcomes: ${released} released, ${HOLDS - released} other (${outcomes.find((o) => o !== 'released') ?? 'none'}); RELEASED in the relay: ${left.total}`,
    );
    await client.close();
  } finally {
    await bench.stop();
    await tools.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
