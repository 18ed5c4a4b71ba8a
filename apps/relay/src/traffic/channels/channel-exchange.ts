import { Inject, Injectable } from '@nestjs/common';
import { Database, Row } from '@agp/database';

import { RELAY_DATABASE } from '../../database/tokens';
import { digestOf } from '../pipeline/hop-audit-events';
import { CallTrace } from '../tracing/call-trace';
import { HopPipeline } from '../pipeline/hop-pipeline';
import { Hop, HopOutcome, PassTerms } from '../pipeline/hop.types';
import { REFUSALS } from '../pipeline/refusal-codes';
import { TrafficDirectory } from '../pipeline/traffic-directory';
import { AiDisclosures, DisclosurePlan } from '../disclosure/ai-disclosures';
import { disclosureTermsOf } from '../disclosure/disclosure-terms';
import { AgentAnswer, ChannelAgent } from './channel-agent';
import { SchemaValidator } from '../../validation/schema-validator';
import { answerPartsValidation, declaredDataSchema } from '../../validation/a2a-validation';
import { validationOf } from '../../validation/validation.types';
import { ExpiringCache } from '../pipeline/expiring-cache';
import { ChannelDirectory, ChannelRoute } from './channel-directory';
import {
  ChannelEventRow,
  ChannelEventsRepository,
  ChannelReply,
} from './channel-events.repository';
import { ChannelCall, actorOf, channelAdmission, channelHopOf, requestJson } from './channel-hops';
import { ChannelReplies } from './channel-replies';

/** How long a Slack member's email is kept per replica (CH10). */
const MEMBER_EMAIL_TTL_MS = 10 * 60_000;

/** How often a held event asks whether a person decided (CH11). */
export const HELD_POLL_MS = 3_000;
/** Attempts to post a reply before the event is FAILED (CH4). */
const MAX_REPLY_ATTEMPTS = 6;

type Json = { text: string } & Record<string, unknown>;

/**
 * CH4, CH8: admitted again, since a kill switch may have engaged since arrival. A hold polls
 * every HELD_POLL_MS instead of holding a worker, and goes on exactly once (D34).
 */
@Injectable()
export class ChannelExchange {
  private readonly memberEmails = new ExpiringCache<string | undefined>(MEMBER_EMAIL_TTL_MS);

  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly directory: ChannelDirectory,
    private readonly traffic: TrafficDirectory,
    private readonly pipeline: HopPipeline,
    private readonly agent: ChannelAgent,
    private readonly replies: ChannelReplies,
    private readonly events: ChannelEventsRepository,
    private readonly disclosures: AiDisclosures,
    private readonly validator: SchemaValidator,
  ) {}

  async handle(row: ChannelEventRow): Promise<void> {
    const route = await this.directory.route(row.tenantId, row.channelId);
    if (!route?.agent) {
      return this.save(row, {
        status: 'REFUSED',
        lastError: 'the channel is no longer subscribed to an agent',
      });
    }
    const settings = await this.traffic.settings(row.tenantId);
    const person = await this.personOf(route, row);
    const call: ChannelCall = {
      route,
      eventId: row.id,
      correlationId: row.correlationId,
      message: row.message,
      ...(person ? { person } : {}),
      captureContent: settings.contentCapture,
      trace: CallTrace.of(row.trace ?? {}),
    };
    const admission = channelAdmission(this.directory, route, row.correlationId);
    const isRequest = row.status === 'PENDING' || row.status === 'RECEIVED';
    const direction = isRequest ? 'REQUEST' : 'RESPONSE';
    const hop = channelHopOf(
      call,
      direction,
      direction === 'REQUEST' ? requestJson(row.message) : { text: row.reply?.text ?? '' },
    );
    // D35: a switch engaged since the event arrived stops it before anything more moves.
    const refused = await this.pipeline.admit(admission, row.status === 'REPLYING' ? [] : [hop], 0);
    if (refused) {
      return this.save(row, { status: 'REFUSED', lastError: refused.reason });
    }
    if (row.status === 'REPLYING') {
      return this.post(call, row, row.reply!);
    }
    const terms = {
      hitl: { waitSeconds: 0, expirySeconds: settings.hitlExpirySeconds },
      resendDigest: holdDigest(row, direction),
    };
    // CH15, T73: whether the answer will tell the person, read before the answer is judged.
    const disclosure = await this.disclosures.plan(
      row.tenantId,
      disclosureTermsOf(settings, route.channel.settings),
      conversationKeyOf(row),
    );
    if (row.status === 'REPLY_HELD') {
      const released = await this.released(call, row, terms.resendDigest);
      return this.answered(call, row, released, disclosure);
    }
    const outcome = row.hitlRequestId
      ? await this.released(call, row, terms.resendDigest)
      : await this.pipeline.pass(hop, { ...terms, applied: (d) => d.maskedMessage.json as Json });
    if (outcome.kind === 'HELD') {
      return this.save(row, {
        status: 'PENDING',
        hitlRequestId: outcome.request.id,
        retryInMs: HELD_POLL_MS,
      });
    }
    if (outcome.kind === 'REFUSED') {
      await outcome.audited;
      return this.post(call, row, notice(outcome.answer));
    }
    const judged = (outcome.message as Json).text;
    const answer = await this.pipeline.forward(settings.durability, outcome.audited, () =>
      this.agent.ask(row.tenantId, row.correlationId, route.agent!, call.trace, {
        id: row.id,
        text: judged,
        metadata: {
          agpChannel: {
            channelId: route.channel.id,
            kind: route.channel.kind,
            threadId: row.message.thread?.id,
          },
        },
      }),
    );
    if (answer.kind === 'failed') {
      const failed = this.pipeline.refusing(channelHopOf(call, 'RESPONSE', { text: '' }), {
        type: 'COMMUNICATION_AUDIT',
        action: 'ERROR',
        reason: answer.reason,
        details: { outcome: 'ERROR', httpStatus: answer.status },
      });
      await failed.audited;
      return this.post(call, row, {
        text: `The agent could not answer (${REFUSALS.upstreamFailed.agpCode}; decision ${failed.decisionId}).`,
        isNotice: true,
        agpCode: REFUSALS.upstreamFailed.agpCode,
        decisionId: failed.decisionId,
      });
    }
    const response = this.answerHop(call, answer, disclosure);
    const replyTerms: PassTerms<Json> = {
      ...terms,
      resendDigest: holdDigest(row, 'RESPONSE'),
      applied: (d) => d.maskedMessage.json as Json,
    };
    return this.answered(call, row, await this.pipeline.pass(response, replyTerms), disclosure);
  }

  /** GR37: the answer's data parts beside its text, checked against the card's response schema. */
  private answerHop(
    call: ChannelCall,
    answer: Extract<AgentAnswer, { kind: 'text' }>,
    disclosure: DisclosurePlan,
  ): Hop {
    const { dataParts } = answer;
    const json = { text: answer.text, ...(dataParts.length > 0 ? { parts: dataParts } : {}) };
    const schema = declaredDataSchema(answer.card, 'RESPONSE');
    const validation = validationOf(answerPartsValidation(dataParts, schema, this.validator.check));
    return {
      ...channelHopOf(call, 'RESPONSE', json),
      disclosure: disclosure.input,
      ...(validation ? { validation } : {}),
    };
  }

  /** The agent's judged answer: posted, held (REPLY_HELD), or a notice in its place. */
  private async answered(
    call: ChannelCall,
    row: ChannelEventRow,
    outcome: HopOutcome<Json>,
    disclosure: DisclosurePlan,
  ): Promise<void> {
    await outcome.audited;
    switch (outcome.kind) {
      case 'HELD':
        return this.save(row, {
          status: 'REPLY_HELD',
          hitlRequestId: outcome.request.id,
          retryInMs: HELD_POLL_MS,
        });
      case 'REFUSED':
        return this.post(call, row, notice(outcome.answer));
      case 'DELIVERED':
      case 'RELEASED': {
        const carried = this.disclosures.carried(disclosure, call.route.agent!);
        // D33: the text as the decision left it (masked), never the agent's own.
        return this.post(call, row, { text: (outcome.message as Json).text, ...carried });
      }
    }
  }

  /** D34: the event's hold, released once when approved; its person or channel is the sender. */
  private async released(
    call: ChannelCall,
    row: ChannelEventRow,
    resendDigest: string,
  ): Promise<HopOutcome<Json>> {
    const outcome = await this.pipeline.release<Json>({
      tenantId: row.tenantId,
      agentId: actorOf(call).id,
      correlationId: row.correlationId,
      hitlRequestId: row.hitlRequestId!,
      resendDigest,
    });
    if (!outcome) {
      const answer = { refusal: REFUSALS.reviewRejected, message: 'the hold is gone', data: {} };
      return { kind: 'REFUSED', cause: 'REVIEW', answer, audited: Promise.resolve() };
    }
    return outcome;
  }

  private async post(call: ChannelCall, row: ChannelEventRow, reply: ChannelReply): Promise<void> {
    const secrets = this.directory.secretsOf(call.route.channel);
    const outcome = await this.replies.post(call.route.channel, secrets, row, reply);
    if (outcome.kind === 'posted') {
      if (!reply.isNotice) {
        await this.disclosures.delivered(
          channelHopOf(call, 'RESPONSE', { text: reply.text }),
          call.route.agent!.id,
          conversationKeyOf(row),
          reply,
          call.route.channel.kind,
        );
      }
      return this.save(row, { status: reply.isNotice ? 'REFUSED' : 'ANSWERED', reply });
    }
    const failures = row.attempts + 1;
    if (outcome.isFinal || failures >= MAX_REPLY_ATTEMPTS) {
      return this.save(row, { status: 'FAILED', reply, lastError: outcome.reason, failed: true });
    }
    return this.save(row, {
      status: 'REPLYING',
      reply,
      lastError: outcome.reason,
      retryInMs: 1_000 * 2 ** failures,
      failed: true,
    });
  }

  /** CH10: a sender whose email is a person of the tenant is that person (never a deleted one). */
  private async personOf(
    route: ChannelRoute,
    row: ChannelEventRow,
  ): Promise<{ id: string; email: string } | undefined> {
    const email = row.message.sender?.email ?? (await this.slackEmailOf(route, row));
    if (!email) {
      return undefined;
    }
    const rows: Row[] = await this.database.inTenant(row.tenantId, (tx) =>
      tx.query(
        `SELECT id, email FROM relay.users WHERE tenant_id = $1 AND lower(email) = lower($2)
            AND status NOT IN ('DELETED', 'DISABLED') LIMIT 1`,
        [row.tenantId, email],
      ),
    );
    return rows[0] ? { id: String(rows[0].id), email: String(rows[0].email) } : undefined;
  }

  /** CH10: a Slack sender is a member id; Slack's `users.info` names its email. */
  private async slackEmailOf(
    route: ChannelRoute,
    row: ChannelEventRow,
  ): Promise<string | undefined> {
    const memberId = row.message.sender?.id;
    if (route.channel.kind !== 'SLACK' || !memberId) {
      return undefined;
    }
    const channel = route.channel;
    return this.memberEmails.get(`${channel.id}:${memberId}`, () =>
      this.replies.slackMemberEmail(channel, this.directory.secretsOf(channel), memberId),
    );
  }

  private save(
    row: ChannelEventRow,
    change: Parameters<ChannelEventsRepository['save']>[2],
  ): Promise<void> {
    return this.database.asSystem((tx) => this.events.save(tx, row.id, change));
  }
}

/** CH11: what a refused or rejected message leaves in its thread: the D41 name, no content. */
function notice(answer: {
  refusal: { agpCode: string };
  message: string;
  data: Record<string, unknown>;
}): ChannelReply {
  const decisionId =
    typeof answer.data.decisionId === 'string' ? answer.data.decisionId : undefined;
  return {
    text: `Not delivered: ${answer.message} (${answer.refusal.agpCode}${decisionId ? `; decision ${decisionId}` : ''}).`,
    isNotice: true,
    agpCode: answer.refusal.agpCode,
    ...(decisionId ? { decisionId } : {}),
  };
}

/** CH15, D44: a channel's conversation is its thread; an event without one is its own. */
function conversationKeyOf(row: ChannelEventRow): string {
  return `channel:${row.channelId}:${row.message.thread?.id ?? row.id}`;
}

/** D34's resend identity of a channel hop: the event and the direction, never a sender's resend. */
function holdDigest(row: ChannelEventRow, direction: 'REQUEST' | 'RESPONSE'): string {
  return digestOf({ channelEvent: row.id, direction });
}
