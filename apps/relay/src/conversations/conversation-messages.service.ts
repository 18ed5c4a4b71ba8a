import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { RequestContext } from '@agp/auth';

import { EndpointRef, HopDecision } from '../decisions/decision.types';
import { HopPipeline } from '../traffic/pipeline/hop-pipeline';
import { Hop } from '../traffic/pipeline/hop.types';
import { TrafficDirectory } from '../traffic/pipeline/traffic-directory';
import { ConversationDelivery, DeliveryOutcome } from './conversation-delivery';
import { Destination, destinationOf } from './conversation-destination';
import { ConversationsErrorCode, ConversationsException } from './conversations.exception';
import { ConversationsService } from './conversations.service';
import { MessageDecision, PostedMessageResponse } from './conversations.types';
import { PostConversationMessageDto } from './dto/post-conversation-message.dto';
import { OperatorPost, agentHop, answerHop, operatorAdmission, threadHop } from './operator-hops';

/** The hops a destination is judged from: the first page of the conversation (CV12). */
const DESTINATION_HOPS = 100;

/**
 * D44, D57 `POST …/messages`: an operator's message is admitted, judged and audited by the hop
 * pipeline like any hop (CV10), then delivered once into the conversation's own thread or agent.
 */
@Injectable()
export class ConversationMessagesService {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly pipeline: HopPipeline,
    private readonly traffic: TrafficDirectory,
    private readonly delivery: ConversationDelivery,
  ) {}

  async post(
    ctx: RequestContext,
    conversationId: string,
    dto: PostConversationMessageDto,
  ): Promise<PostedMessageResponse> {
    const page = await this.conversations.readPage(ctx.tenantId, conversationId, ['AGENT', 'MCP'], {
      limit: DESTINATION_HOPS,
    });
    const destination = destinationOf(page.hops);
    if (destination.kind === 'NONE') {
      throw new ConversationsException(ConversationsErrorCode.NotDeliverable, destination.reason);
    }
    const settings = await this.traffic.settings(ctx.tenantId);
    const post: OperatorPost = {
      tenantId: ctx.tenantId,
      correlationId: ctx.correlationId,
      operator: { type: 'USER', id: ctx.principal.subject, name: ctx.principal.label },
      conversation: page.conversation,
      text: dto.text,
      captureContent: settings.contentCapture,
    };
    const messageId = randomUUID();
    const hop = await this.hopFor(post, destination, messageId);
    const refused = await this.pipeline.admit(operatorAdmission(post, hop.sink), [hop]);
    if (refused) {
      throw new ConversationsException(ConversationsErrorCode.MessageBlocked, refused.reason);
    }
    const verdict = await this.pipeline.judge(hop);
    // CV10: an operator is the person a review would ask; a held message is a refused one.
    if (!verdict.isDelivered || verdict.decision.action === 'HUMAN_REVIEW_REQUIRED') {
      await verdict.audited;
      throw blocked(verdict.decision, verdict.decisionId);
    }
    const text = verdict.decision.maskedMessage.text;
    const outcome = await this.pipeline.forward(settings.durability, verdict.audited, () =>
      this.deliver(post, destination, { id: verdict.decisionId, text, messageId }),
    );
    if (outcome.kind === 'failed') {
      await this.pipeline.refuse(hop, {
        type: 'COMMUNICATION_AUDIT',
        action: 'ERROR',
        reason: `not delivered: ${outcome.reason}`,
      });
      throw new ConversationsException(ConversationsErrorCode.DeliveryFailed, outcome.reason);
    }
    const reply =
      outcome.answer?.kind === 'text'
        ? await this.judgeAnswer(hop, outcome.answer.text)
        : undefined;
    return {
      decisionId: verdict.decisionId,
      conversationId,
      deliveredVia: destination.kind,
      decision: decisionOf(verdict.decision),
      ...(reply !== undefined ? { reply } : {}),
    };
  }

  private async hopFor(
    post: OperatorPost,
    destination: Exclude<Destination, { kind: 'NONE' }>,
    messageId: string,
  ): Promise<Hop> {
    if (destination.kind === 'A2A') {
      const agent: EndpointRef = { type: 'AGENT', id: destination.agentId };
      return agentHop(post, agent, messageId, destination.contextId);
    }
    const channel = await this.delivery.channelOf(post.tenantId, destination.channelId);
    if (!channel) {
      throw new ConversationsException(
        ConversationsErrorCode.NotDeliverable,
        `channel ${destination.channelId} no longer exists`,
      );
    }
    return threadHop(post, channel, destination.threadId);
  }

  private deliver(
    post: OperatorPost,
    destination: Exclude<Destination, { kind: 'NONE' }>,
    message: { id: string; text: string; messageId: string },
  ): Promise<DeliveryOutcome> {
    if (destination.kind === 'A2A') {
      return this.delivery.toAgent(post.tenantId, post.operator.id, destination.agentId, {
        id: message.messageId,
        correlationId: post.correlationId,
        text: message.text,
        ...(destination.contextId ? { contextId: destination.contextId } : {}),
      });
    }
    return this.delivery.channelOf(post.tenantId, destination.channelId).then((channel) =>
      channel
        ? this.delivery.toThread(channel, destination.threadId, {
            id: message.id,
            correlationId: post.correlationId,
            text: message.text,
          })
        : { kind: 'failed', reason: `channel ${destination.channelId} no longer exists` },
    );
  }

  /** D33: the agent's answer is a hop of the conversation too; a refused one is not shown. */
  private async judgeAnswer(request: Hop, text: string): Promise<string | undefined> {
    const verdict = await this.pipeline.judge(answerHop(request, text));
    await verdict.audited;
    const isShown = verdict.isDelivered && verdict.decision.action !== 'HUMAN_REVIEW_REQUIRED';
    return isShown ? verdict.decision.maskedMessage.text : undefined;
  }
}

function decisionOf(decision: HopDecision): MessageDecision {
  return {
    action: decision.action,
    policies: [...new Set(decision.bindings.map((b) => b.groupId))],
    reasons: decision.reasons,
  };
}

function blocked(decision: HopDecision, decisionId: string): ConversationsException {
  const reasons = decision.reasons.length > 0 ? decision.reasons.join('; ') : decision.action;
  return new ConversationsException(
    ConversationsErrorCode.MessageBlocked,
    `the message was not delivered: ${decision.action} (${reasons}); decision ${decisionId}`,
  );
}
