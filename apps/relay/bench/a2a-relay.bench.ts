import { startA2aTestAgent } from '@agp/testing';

import { A2aSendClient } from './a2a/a2a-load';
import {
  api,
  arrangeAdmin,
  bindAtTenant,
  registerAgent,
  relayToken,
  startBenchPlatform,
} from './mcp/bench-platform';
import { BENCH_POLICIES } from './mcp/bench-policies';
import { compareThroughRelay, comparisonSettings, policyTimePerHop } from './relay-comparison';

const TEXT = 'quarterly numbers for the board';

/**
 * Issue 13: A2A `message/send` to an agent built on the official SDK's server classes, through
 * the gateway and the relay (caller subscribed, five policies bound at TENANT level, both hops
 * decided and audited durably before the answer) beside the same call straight to the agent.
 */
async function main(): Promise<void> {
  const agent = await startA2aTestAgent({ record: false });
  const bench = await startBenchPlatform('a2a');
  try {
    const gateway = bench.gatewayUrl;
    const adminToken = await arrangeAdmin(bench);
    const caller = await registerAgent(gateway, adminToken, 'bench-caller');
    const target = await registerAgent(gateway, adminToken, 'bench-target');
    await api(gateway, adminToken, 'PATCH', `/relay/v1/agents/${target.id}`, {
      agentCardUrl: agent.cardUrl,
    });
    await api(gateway, adminToken, 'POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_AGENT',
      sourceId: caller.id,
      targetId: target.id,
    });
    await bindAtTenant(gateway, adminToken, BENCH_POLICIES);
    const token = await relayToken(gateway, caller);

    const direct = new A2aSendClient(new URL(agent.url));
    const relayOnly = new A2aSendClient(new URL(`${bench.relayUrl}/relay/a2a/${target.id}`), token);
    const platform = new A2aSendClient(new URL(`${gateway}/relay/a2a/${target.id}`), token);
    const send = (client: A2aSendClient): Promise<void> => client.send(TEXT);
    await compareThroughRelay(
      {
        bench,
        clients: { direct, relayOnly, platform },
        rateCall: send,
        warmup: 300,
        title:
          'A2A message/send (SDK server agent): 5 bindings evaluated both ways, audit durable before the answer',
        upstream: 'the agent',
        benchProcess: 'bench (load + A2A agent)',
        whereTheTimeGoes: (trail) =>
          policyTimePerHop(
            trail,
            'A2A hops',
            `event_type = 'COMMUNICATION_AUDIT' AND details->>'a2a' = 'true'`,
          ),
      },
      comparisonSettings(200),
    );
  } finally {
    await bench.stop();
    await agent.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
