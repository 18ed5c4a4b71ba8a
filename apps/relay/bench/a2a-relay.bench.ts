import { startA2aTestAgent } from '@agp/testing';

import { A2aSendClient } from './a2a/a2a-load';
import { arrangePerson } from './human/bench-person';
import { startComparedProcesses } from './floor/compared-processes';
import {
  BenchTarget,
  api,
  arrangeAdmin,
  bindAtTenant,
  registerAgent,
  relayToken,
} from './mcp/bench-platform';
import { BENCH_POLICIES } from './mcp/bench-policies';
import { compareThroughRelay, comparisonSettings, policyTimePerHop } from './relay-comparison';

const TEXT = 'quarterly numbers for the board';

/** A caller subscribed to a target agent whose card is `cardUrl`, five policies at TENANT level. */
async function arrangeA2a(
  target: BenchTarget,
  cardUrl: string,
): Promise<{ targetId: string; token: string; adminToken: string }> {
  const gateway = target.gatewayUrl;
  const adminToken = await arrangeAdmin(target);
  const caller = await registerAgent(gateway, adminToken, 'bench-caller');
  const agent = await registerAgent(gateway, adminToken, 'bench-target');
  await api(gateway, adminToken, 'PATCH', `/relay/v1/agents/${agent.id}`, {
    agentCardUrl: cardUrl,
  });
  await api(gateway, adminToken, 'POST', '/relay/v1/subscriptions', {
    kind: 'AGENT_TO_AGENT',
    sourceId: caller.id,
    targetId: agent.id,
  });
  await bindAtTenant(gateway, adminToken, BENCH_POLICIES);
  return { targetId: agent.id, token: await relayToken(gateway, caller), adminToken };
}

/**
 * Issue 13: A2A `message/send` to an agent built on the official SDK's server classes, through
 * the gateway and the relay (caller subscribed, five policies bound at TENANT level, both hops
 * decided and audited durably before the answer) beside the same call straight to the agent, a
 * bare hop and the one process (issue 31), and a person's message to the same agent through
 * `/relay/human` (issue 33 § 1, D43).
 */
async function main(): Promise<void> {
  const agent = await startA2aTestAgent({ record: false });
  const processes = await startComparedProcesses('a2a', agent.url);
  const { bench, oneProcess, bareHop } = processes;
  try {
    const at = (origin: string, { targetId, token }: { targetId: string; token: string }) =>
      new A2aSendClient(new URL(`${origin}/relay/a2a/${targetId}`), token);
    const services = await arrangeA2a(bench, agent.cardUrl);
    // Issue 33 § 1: the same agent, a person's message to it through /relay/human (D43).
    const person = await arrangePerson(bench.gatewayUrl, services.adminToken, services.targetId);
    await compareThroughRelay(
      {
        bench,
        oneProcess,
        others: [bareHop],
        rows: [
          {
            kind: 'direct',
            label: 'direct to the agent',
            client: new A2aSendClient(new URL(agent.url)),
          },
          {
            kind: 'floor',
            label: 'bare fastify + undici hop',
            client: new A2aSendClient(new URL(`${bareHop.url}${new URL(agent.url).pathname}`)),
          },
          { kind: 'relay', label: 'relay only (no gateway)', client: at(bench.relayUrl, services) },
          { kind: 'services', label: 'gateway + relay', client: at(bench.gatewayUrl, services) },
          {
            kind: 'services',
            label: "person's A2A message (gateway + relay, /relay/human)",
            client: new A2aSendClient(
              new URL(`${bench.gatewayUrl}/relay/human/${services.targetId}`),
              person,
            ),
          },
          {
            kind: 'oneProcess',
            label: 'one process (npm start, PGlite)',
            client: at(oneProcess.gatewayUrl, await arrangeA2a(oneProcess, agent.cardUrl)),
          },
        ],
        rateCall: (client) => client.send(TEXT),
        warmup: 200,
        title:
          'A2A message/send (SDK server agent): 5 bindings evaluated both ways, audit durable before the answer',
        benchProcess: 'bench (load + A2A agent)',
        whereTheTimeGoes: (trail) =>
          policyTimePerHop(
            trail,
            'A2A hops',
            `event_type = 'COMMUNICATION_AUDIT' AND details->>'a2a' = 'true'`,
          ),
      },
      comparisonSettings(100),
    );
  } finally {
    await processes.stop();
    await agent.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
