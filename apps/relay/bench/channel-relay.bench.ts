import { startA2aTestAgent } from '@agp/testing';
import { request } from 'undici';

import { A2aSendClient } from './a2a/a2a-load';
import { SlackSink, slackEvent } from './channels/slack-sink';
import { Measurement, sequential, table } from './measure';
import {
  api,
  arrangeAdmin,
  bindAtTenant,
  registerAgent,
  relayToken,
  startBenchPlatform,
} from './mcp/bench-platform';
import { BENCH_POLICIES } from './mcp/bench-policies';

const SIGNING_SECRET = 'bench-signing-secret';
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 100);
const WARMUP = 10;

/**
 * Issue 33 § 3: a Slack event through the gateway to the agent and the agent's answer posted back
 * with `chat.postMessage` (the reply follows the 200 in the background, channels.md CH4), beside
 * the agent path's A2A `SendMessage` to the same agent in the same run. Five policies at TENANT
 * level judge every hop of both (two hops per call), each hop audited durably.
 */
async function main(): Promise<void> {
  const agent = await startA2aTestAgent({ record: false });
  const slack = await SlackSink.start();
  const platform = await startBenchPlatform('channels');
  try {
    const gateway = platform.gatewayUrl;
    const adminToken = await arrangeAdmin(platform);
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
    const channel = await api<{ id: string }>(gateway, adminToken, 'POST', '/relay/v1/channels', {
      name: 'bench-slack',
      kind: 'SLACK',
      config: {
        signingSecret: SIGNING_SECRET,
        botToken: 'xoxb-bench',
        apiBaseUrl: slack.apiBaseUrl,
      },
    });
    await api(gateway, adminToken, 'POST', '/relay/v1/subscriptions', {
      kind: 'CHANNEL_TO_AGENT',
      sourceId: channel.id,
      targetId: target.id,
    });
    // D45: the same channel with a disclosure on each thread's first reply and every reply marked.
    const disclosed = await api<{ id: string }>(gateway, adminToken, 'POST', '/relay/v1/channels', {
      name: 'bench-slack-disclosed',
      kind: 'SLACK',
      config: {
        signingSecret: SIGNING_SECRET,
        botToken: 'xoxb-bench',
        apiBaseUrl: slack.apiBaseUrl,
        aiDisclosure: 'FIRST_MESSAGE',
        contentMarking: 'ON',
      },
    });
    await api(gateway, adminToken, 'POST', '/relay/v1/subscriptions', {
      kind: 'CHANNEL_TO_AGENT',
      sourceId: disclosed.id,
      targetId: target.id,
    });
    await bindAtTenant(gateway, adminToken, BENCH_POLICIES);
    const a2a = new A2aSendClient(
      new URL(`${gateway}/relay/a2a/${target.id}`),
      await relayToken(gateway, caller),
    );
    let n = 0;
    const postEvent = async (channelId = channel.id): Promise<string> => {
      const eventsUrl = `${gateway}/relay/channels/${channelId}/events`;
      const marker = `m-${(n += 1)}`;
      const signed = slackEvent(SIGNING_SECRET, `quarterly numbers ${marker}`);
      const answer = await request(eventsUrl, {
        method: 'POST',
        headers: signed.headers,
        body: signed.body,
      });
      await answer.body.dump();
      if (answer.statusCode !== 200) {
        throw new Error(`the event was answered ${answer.statusCode}`);
      }
      return marker;
    };
    const rows: Measurement[] = [];
    rows.push(
      await sequential('A2A SendMessage, gateway + relay', ITERATIONS, WARMUP, () =>
        a2a.send('quarterly numbers'),
      ),
    );
    rows.push(
      await sequential('Slack event → agent → chat.postMessage', ITERATIONS, WARMUP, async () => {
        const marker = `m-${n + 1}`;
        const posted = slack.posted(marker);
        await postEvent();
        await posted;
      }),
    );
    rows.push(
      await sequential(
        'Slack event → chat.postMessage, disclosed + marked',
        ITERATIONS,
        WARMUP,
        async () => {
          const marker = `m-${n + 1}`;
          const posted = slack.posted(marker);
          await postEvent(disclosed.id);
          await posted;
        },
      ),
    );
    rows.push(
      await sequential('Slack event acknowledged (200)', ITERATIONS, WARMUP, () => postEvent()),
    );
    console.log(table(rows));
    await a2a.close();
  } finally {
    await platform.stop();
    await slack.close();
    await agent.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
