import { Injectable } from '@nestjs/common';

import { A2aDirectory } from '../traffic/a2a/a2a-directory';
import { AgentAnswer, ChannelAgent } from '../traffic/channels/channel-agent';
import { ChannelDirectory, ChannelEntry } from '../traffic/channels/channel-directory';
import { ChannelMessage } from '../traffic/channels/channel-inbound';
import { ChannelReplies } from '../traffic/channels/channel-replies';
import { CallTrace } from '../traffic/tracing/call-trace';

/** Why a judged message did not arrive, and whether it was never deliverable there at all. */
export type DeliveryOutcome =
  { kind: 'delivered'; answer?: AgentAnswer } | { kind: 'failed'; reason: string };

/**
 * CV12: an operator's message goes out once, the way the conversation's own traffic does: a
 * channel thread as a channel's reply (CH6, CH7: the webhook reply's id is the decision's, so a
 * receiver drops a repeat), an agent as a blocking A2A message in the conversation's context.
 */
@Injectable()
export class ConversationDelivery {
  constructor(
    private readonly channels: ChannelDirectory,
    private readonly replies: ChannelReplies,
    private readonly a2a: A2aDirectory,
    private readonly agent: ChannelAgent,
  ) {}

  async channelOf(tenantId: string, channelId: string): Promise<ChannelEntry | undefined> {
    const route = await this.channels.route(tenantId, channelId);
    return route?.tenantId === tenantId ? route.channel : undefined;
  }

  async toThread(
    channel: ChannelEntry,
    threadId: string,
    message: { id: string; correlationId: string; text: string },
  ): Promise<DeliveryOutcome> {
    if (channel.kind === 'WEB') {
      // CH9: a visitor's page reads replies to its own events only; nothing can be posted to it.
      return {
        kind: 'failed',
        reason: 'a WEB channel has no way to take a message it did not ask for',
      };
    }
    const event: { id: string; correlationId: string; message: ChannelMessage } = {
      id: message.id,
      correlationId: message.correlationId,
      message: { text: '', thread: threadOf(channel.kind, threadId) },
    };
    const outcome = await this.replies.post(channel, this.channels.secretsOf(channel), event, {
      text: message.text,
    });
    return outcome.kind === 'posted'
      ? { kind: 'delivered' }
      : { kind: 'failed', reason: outcome.reason };
  }

  async toAgent(
    tenantId: string,
    operatorId: string,
    agentId: string,
    message: { id: string; correlationId: string; text: string; contextId?: string },
  ): Promise<DeliveryOutcome> {
    const route = await this.a2a.route(tenantId, operatorId, agentId, 'USER');
    if (!route) {
      return { kind: 'failed', reason: `agent ${agentId} is no longer registered` };
    }
    const answer = await this.agent.ask(
      tenantId,
      message.correlationId,
      route.target,
      new CallTrace(),
      {
        id: message.id,
        text: message.text,
        metadata: { agpOperatorMessage: true },
        ...(message.contextId ? { contextId: message.contextId } : {}),
      },
    );
    return answer.kind === 'failed'
      ? { kind: 'failed', reason: answer.reason }
      : { kind: 'delivered', answer };
  }
}

/** CH8: a Slack thread id is `channel:thread_ts`; any other kind's thread id is its own. */
function threadOf(kind: string, threadId: string): ChannelMessage['thread'] {
  if (kind !== 'SLACK') {
    return { id: threadId };
  }
  const split = threadId.indexOf(':');
  return {
    id: threadId,
    slackChannel: threadId.slice(0, split),
    slackThreadTs: threadId.slice(split + 1),
  };
}
