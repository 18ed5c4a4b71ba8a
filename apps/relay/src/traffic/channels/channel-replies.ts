import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Agent, request } from 'undici';

import { SLACK_API_BASE_URL } from '../../channels/channel-config';
import { EgressOptions, checkEgressUrl } from '../../common/egress-policy';
import { guardedLookup } from '../../common/guarded-lookup';
import { EGRESS_OPTIONS } from '../../config/relay-config.module';
import { ChannelEntry } from './channel-directory';
import { ChannelMessage } from './channel-inbound';
import { ChannelReply } from './channel-events.repository';
import { standardWebhookHeaders } from './standard-webhooks';
import { ChannelSecrets, acceptedSecrets } from '../../channels/channel-config';

const REPLY_TIMEOUT_MS = 10_000;

/** Whether a reply reached its channel; `isFinal` when trying again cannot help. */
export type ReplyOutcome =
  { kind: 'posted' } | { kind: 'failed'; reason: string; isFinal: boolean };

/** Slack's errors that mean the request itself is wrong: sending it again changes nothing. */
const SLACK_RETRYABLE = new Set([
  'ratelimited',
  'service_unavailable',
  'fatal_error',
  'internal_error',
  'request_timeout',
]);

/**
 * CH16: the disclosure opens the message's text (what Slack shows and notifies), the marking is
 * Slack's own message metadata, whose payload takes one level of scalars.
 */
export function slackFormOf(reply: ChannelReply): {
  text: string;
  metadata?: { event_type: string; event_payload: Record<string, string | boolean> };
} {
  const text = reply.disclosure !== undefined ? `${reply.disclosure}\n\n${reply.text}` : reply.text;
  const marking = reply.marking;
  if (!marking) {
    return { text };
  }
  return {
    text,
    metadata: {
      event_type: SLACK_MARKING_EVENT_TYPE,
      event_payload: {
        ai_generated: true,
        mode: marking.mode,
        digital_source_type: marking.digitalSourceType,
        agent_id: marking.generator.id,
        ...(marking.generator.name ? { agent_name: marking.generator.name } : {}),
        marked_at: marking.markedAt,
      },
    },
  };
}

/** CH16: the `event_type` of the marking in Slack's message metadata. */
export const SLACK_MARKING_EVENT_TYPE = 'agp_synthetic_content';

/** CH6, CH7, D37: URL checked, every resolved address checked on connect, no redirects. */
@Injectable()
export class ChannelReplies implements OnApplicationShutdown {
  private readonly dispatcher: Agent;

  constructor(@Inject(EGRESS_OPTIONS) private readonly egress: EgressOptions) {
    this.dispatcher = new Agent({
      connections: 64,
      keepAliveTimeout: 10_000,
      connect: { timeout: REPLY_TIMEOUT_MS, lookup: guardedLookup(egress) },
    });
  }

  async post(
    channel: ChannelEntry,
    secrets: ChannelSecrets,
    event: { id: string; correlationId: string; message: ChannelMessage },
    reply: ChannelReply,
  ): Promise<ReplyOutcome> {
    switch (channel.kind) {
      case 'SLACK':
        return this.toSlack(channel, secrets, event, reply);
      case 'WEBHOOK':
        return this.toWebhook(channel, secrets, event, reply);
      default:
        // WEB: the visitor's page reads the reply (CH9); nothing is posted.
        return { kind: 'posted' };
    }
  }

  /** CH10: needs the `users:read.email` scope; undefined, never an error, when absent. */
  async slackMemberEmail(
    channel: ChannelEntry,
    secrets: ChannelSecrets,
    memberId: string,
  ): Promise<string | undefined> {
    if (!secrets.botToken) {
      return undefined;
    }
    const base = channel.settings.apiBaseUrl ?? SLACK_API_BASE_URL;
    const url = `${base}/users.info?user=${encodeURIComponent(memberId)}`;
    if (checkEgressUrl(url, this.egress)) {
      return undefined;
    }
    try {
      const answer = await request(url, {
        method: 'GET',
        dispatcher: this.dispatcher,
        headers: { authorization: `Bearer ${secrets.botToken}` },
        headersTimeout: REPLY_TIMEOUT_MS,
        bodyTimeout: REPLY_TIMEOUT_MS,
      });
      const body = (await answer.body.json()) as {
        ok?: boolean;
        user?: { profile?: { email?: unknown } };
      };
      const email = body.ok === true ? body.user?.profile?.email : undefined;
      return typeof email === 'string' ? email : undefined;
    } catch {
      return undefined;
    }
  }

  private async toSlack(
    channel: ChannelEntry,
    secrets: ChannelSecrets,
    event: { correlationId: string; message: ChannelMessage },
    reply: ChannelReply,
  ): Promise<ReplyOutcome> {
    const thread = event.message.thread;
    if (!secrets.botToken || !thread?.slackChannel) {
      return {
        kind: 'failed',
        reason: 'no bot token or no Slack channel to reply in',
        isFinal: true,
      };
    }
    const url = `${channel.settings.apiBaseUrl ?? SLACK_API_BASE_URL}/chat.postMessage`;
    const body = JSON.stringify({
      channel: thread.slackChannel,
      ...slackFormOf(reply),
      ...(thread.slackThreadTs ? { thread_ts: thread.slackThreadTs } : {}),
    });
    const sent = await this.send(url, body, {
      authorization: `Bearer ${secrets.botToken}`,
      'content-type': 'application/json; charset=utf-8',
      'x-correlation-id': event.correlationId,
    });
    if (sent.kind === 'failed') {
      return sent;
    }
    let answer: { ok?: boolean; error?: string };
    try {
      answer = JSON.parse(sent.body) as { ok?: boolean; error?: string };
    } catch {
      return {
        kind: 'failed',
        reason: 'Slack answered something that is not JSON',
        isFinal: false,
      };
    }
    if (answer.ok === true) {
      return { kind: 'posted' };
    }
    const error = String(answer.error ?? 'unknown_error');
    return {
      kind: 'failed',
      reason: `chat.postMessage: ${error}`,
      isFinal: !SLACK_RETRYABLE.has(error),
    };
  }

  private async toWebhook(
    channel: ChannelEntry,
    secrets: ChannelSecrets,
    event: { id: string; correlationId: string; message: ChannelMessage },
    reply: ChannelReply,
  ): Promise<ReplyOutcome> {
    if (!channel.settings.url || !secrets.signingSecret) {
      return {
        kind: 'failed',
        reason: 'the WEBHOOK channel has no url to reply to',
        isFinal: true,
      };
    }
    const body = JSON.stringify({
      type: 'channel.reply',
      channelId: channel.id,
      eventId: event.id,
      ...(event.message.thread ? { threadId: event.message.thread.id } : {}),
      text: reply.text,
      ...(reply.isNotice
        ? { notice: true, agpCode: reply.agpCode, decisionId: reply.decisionId }
        : {}),
      // CH17: the disclosure and the marking are fields of the payload the receiver renders.
      ...(reply.disclosure !== undefined ? { aiDisclosure: { text: reply.disclosure } } : {}),
      ...(reply.marking ? { syntheticContent: reply.marking } : {}),
      correlationId: event.correlationId,
    });
    // CH7: the reply's id is the event's, so a receiver deduplicates a reply sent again.
    // CH19: during a rotation's grace both secrets sign, so a receiver on either verifies.
    const headers = standardWebhookHeaders(
      acceptedSecrets(
        secrets.signingSecret,
        secrets.previousSigningSecret,
        secrets.previousUntil,
        Date.now(),
      ),
      `msg_${event.id}`,
      Math.floor(Date.now() / 1000),
      body,
    );
    const sent = await this.send(channel.settings.url, body, {
      ...headers,
      'content-type': 'application/json',
      'x-correlation-id': event.correlationId,
    });
    return sent.kind === 'failed' ? sent : { kind: 'posted' };
  }

  private async send(
    url: string,
    body: string,
    headers: Record<string, string>,
  ): Promise<{ kind: 'sent'; body: string } | Extract<ReplyOutcome, { kind: 'failed' }>> {
    const refusal = checkEgressUrl(url, this.egress);
    if (refusal) {
      return { kind: 'failed', reason: `egress refused (D37): ${refusal}`, isFinal: true };
    }
    try {
      const answer = await request(url, {
        method: 'POST',
        dispatcher: this.dispatcher,
        headers: { 'user-agent': 'agp-channels/1', ...headers },
        body,
        headersTimeout: REPLY_TIMEOUT_MS,
        bodyTimeout: REPLY_TIMEOUT_MS,
      });
      const text = await answer.body.text();
      if (answer.statusCode < 200 || answer.statusCode >= 300) {
        const isFinal =
          answer.statusCode >= 400 && answer.statusCode < 500 && answer.statusCode !== 429;
        return { kind: 'failed', reason: `${url} answered ${answer.statusCode}`, isFinal };
      }
      return { kind: 'sent', body: text };
    } catch (error) {
      return {
        kind: 'failed',
        reason: error instanceof Error ? error.message : String(error),
        isFinal: false,
      };
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.dispatcher.destroy();
  }
}
