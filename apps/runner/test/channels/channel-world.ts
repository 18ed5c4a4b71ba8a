import { randomUUID } from 'node:crypto';

import { A2aWorld } from '../a2a/a2a-world';
import { Json, McpWorld } from '../mcp/mcp-world';
import { slackRequest } from './slack-stand-in';

export const SIGNING_SECRET = 'slack-signing-secret-for-tests';
export const BOT_TOKEN = 'xoxb-stand-in-bot-token';

/** Masks an SSN in a channel message's text, both ways (channels.md CH8: `text` is the path). */
export const CHANNEL_MASK_POLICY = `package channels.mask

import rego.v1

ssn := \`\\b\\d{3}-\\d{2}-\\d{4}\\b\`

decision := {"action": "MASK", "reasons": ["SSN in message"], "mask": [{"path": "text", "pattern": ssn, "label": "SSN"}]} if {
	input.protocol == "CHANNEL"
	regex.match(ssn, input.message.text)
}
`;

/** Blocks a prompt injection coming in from a channel. */
export const CHANNEL_BLOCK_POLICY = `package channels.block

import rego.v1

decision := {"action": "BLOCK", "reasons": ["prompt injection"]} if {
	input.direction == "REQUEST"
	input.source.type == "CHANNEL"
	contains(input.message.text, "ignore previous instructions")
}
`;

/** Holds a channel message that asks for a wire transfer, for a person (D34). */
export const CHANNEL_HOLD_POLICY = `package channels.hold

import rego.v1

decision := {"action": "HUMAN_REVIEW_REQUIRED", "reasons": ["payments need a reviewer"]} if {
	input.direction == "REQUEST"
	contains(input.message.text, "wire transfer")
}
`;

/**
 * The channel side of a test tenant (issue 33 § 3): channels subscribed to an agent, policies
 * bound to them, and Slack's Events API requests signed as Slack signs them.
 */
export class ChannelWorld {
  constructor(
    private readonly world: McpWorld,
    private readonly a2a: A2aWorld,
    private readonly agentCardUrl: string,
    private readonly slackApiBaseUrl: string,
  ) {}

  eventsUrl(channelId: string): string {
    return `${this.world.platform.baseUrl}/relay/channels/${channelId}/events`;
  }

  /**
   * A channel of `kind` subscribed to a fresh agent (the A2A test agent), a policy bound to it:
   * `level` CHANNEL binds it to the channel's hops, CHANNEL_SUBSCRIPTION to the pair's.
   */
  async channel(
    kind: string,
    config: Json,
    policy?: string,
    level: 'CHANNEL' | 'CHANNEL_SUBSCRIPTION' = 'CHANNEL',
  ): Promise<{ channel: Json; agentId: string }> {
    const world = this.world;
    const created = await world.ok<Json>('POST', '/relay/v1/channels', {
      name: `${kind.toLowerCase()}-${randomUUID().slice(0, 8)}`,
      kind,
      config,
    });
    const target = await this.a2a.target(this.agentCardUrl);
    await world.ok('POST', '/relay/v1/subscriptions', {
      kind: 'CHANNEL_TO_AGENT',
      sourceId: created.id,
      targetId: target.id,
    });
    if (policy) {
      const group = await world.ok<{ id: string }>('POST', '/relay/v1/policy-groups', {
        name: `group-${randomUUID().slice(0, 8)}`,
      });
      await world.ok('POST', `/relay/v1/policy-groups/${group.id}/versions`, {
        regoSource: policy,
      });
      await world.ok('POST', '/relay/v1/policy-bindings', {
        groupId: group.id,
        bindingLevel: level,
        channelId: created.id,
        ...(level === 'CHANNEL_SUBSCRIPTION' ? { agentId: target.id } : {}),
      });
    }
    return { channel: created, agentId: target.id };
  }

  slackChannel(policy?: string, level?: 'CHANNEL' | 'CHANNEL_SUBSCRIPTION') {
    const config = {
      signingSecret: SIGNING_SECRET,
      botToken: BOT_TOKEN,
      apiBaseUrl: this.slackApiBaseUrl,
    };
    return this.channel('SLACK', config, policy, level);
  }

  /** An Events API request signed as Slack signs it, posted to the channel's events path. */
  async postSlack(
    channelId: string,
    body: unknown,
    options: { timestamp?: number; retryNum?: number; correlationId?: string } = {},
  ) {
    const signed = slackRequest(SIGNING_SECRET, body, options);
    const response = await fetch(this.eventsUrl(channelId), {
      method: 'POST',
      headers: {
        ...signed.headers,
        ...(options.correlationId ? { 'x-correlation-id': options.correlationId } : {}),
      },
      body: signed.body,
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: (text ? JSON.parse(text) : undefined) as Json,
    };
  }
}
