import { randomUUID, timingSafeEqual } from 'node:crypto';
import { IncomingHttpHeaders } from 'node:http';

import { ChannelSecrets, ChannelSettings, acceptedSecrets } from '../../channels/channel-config';
import { slackRequestFault } from './slack-signature';
import { standardWebhookFault } from './standard-webhooks';

/** The longest text an event may carry (CH8); Slack's own message limit is 40,000 characters. */
export const MAX_CHANNEL_TEXT = 40_000;

/** Who wrote a channel message, as the platform names them (CH10). */
export interface ChannelSender {
  id?: string;
  email?: string;
  name?: string;
}

/** A channel message in the relay's words: what its hop's `message.json` is (CH8). */
export interface ChannelMessage {
  text: string;
  sender?: ChannelSender;
  /** The thread a reply goes into: Slack's `channel` and `thread_ts`, a webhook's or chat's id. */
  thread?: { id: string; slackChannel?: string; slackThreadTs?: string };
}

/** What an inbound request comes to, before anything is stored. */
export type Inbound =
  | { kind: 'event'; externalId: string; message: ChannelMessage; retry: boolean }
  /** Answered at once and nothing more: Slack's URL verification, an event no agent needs. */
  | { kind: 'answer'; status: number; body: unknown }
  | { kind: 'fault'; status: 400 | 401 | 403 | 409; reason: string };

export interface InboundRequest {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: unknown;
  nowSeconds: number;
}

const fault = (status: 400 | 401 | 403 | 409, reason: string): Inbound => ({
  kind: 'fault',
  status,
  reason,
});

/** CH2, CH3: signature first; bots' own messages (our replies too) are acknowledged and dropped. */
export function slackInbound(secrets: ChannelSecrets, request: InboundRequest): Inbound {
  if (!secrets.signingSecret) {
    return fault(409, 'this SLACK channel has no signing secret: set config.signingSecret');
  }
  const why = slackRequestFault(
    secrets.signingSecret,
    request.headers,
    request.rawBody,
    request.nowSeconds,
  );
  if (why) {
    return fault(401, why);
  }
  const body = request.body as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object') {
    return fault(400, 'the body is not a Slack event');
  }
  if (body.type === 'url_verification') {
    return typeof body.challenge === 'string'
      ? { kind: 'answer', status: 200, body: { challenge: body.challenge } }
      : fault(400, 'url_verification without a challenge');
  }
  const event = body.event as Record<string, unknown> | undefined;
  if (body.type !== 'event_callback' || typeof body.event_id !== 'string' || !event) {
    return { kind: 'answer', status: 200, body: { ok: true } };
  }
  const isPersonMessage =
    (event.type === 'message' || event.type === 'app_mention') &&
    event.subtype === undefined &&
    event.bot_id === undefined &&
    typeof event.user === 'string' &&
    typeof event.text === 'string' &&
    typeof event.channel === 'string' &&
    typeof event.ts === 'string';
  if (!isPersonMessage) {
    return { kind: 'answer', status: 200, body: { ok: true } };
  }
  const channel = String(event.channel);
  const threadTs = typeof event.thread_ts === 'string' ? event.thread_ts : String(event.ts);
  return {
    kind: 'event',
    externalId: body.event_id,
    retry: request.headers['x-slack-retry-num'] !== undefined,
    message: {
      text: String(event.text).slice(0, MAX_CHANNEL_TEXT),
      sender: { id: String(event.user) },
      thread: { id: `${channel}:${threadTs}`, slackChannel: channel, slackThreadTs: threadTs },
    },
  };
}

/** CH7: Standard Webhooks with the channel's `whsec_`; the message id is the event's id. */
export function webhookInbound(secrets: ChannelSecrets, request: InboundRequest): Inbound {
  if (!secrets.signingSecret) {
    return fault(409, 'this WEBHOOK channel has no signing secret');
  }
  const why = standardWebhookFault(
    acceptedSecrets(
      secrets.signingSecret,
      secrets.previousSigningSecret,
      secrets.previousUntil,
      request.nowSeconds * 1000,
    ),
    request.headers,
    request.rawBody,
    request.nowSeconds,
  );
  if (why) {
    return fault(401, why);
  }
  const body = request.body as Record<string, unknown> | undefined;
  const invalid =
    messageFault(body) ?? senderFault(body?.sender) ?? idFault(body?.threadId, 'threadId');
  if (invalid) {
    return fault(400, invalid);
  }
  const sender = body!.sender as ChannelSender | undefined;
  return {
    kind: 'event',
    externalId: String(request.headers['webhook-id']),
    retry: false,
    message: {
      text: String(body!.text),
      ...(sender ? { sender: pickSender(sender) } : {}),
      ...(typeof body!.threadId === 'string' ? { thread: { id: body!.threadId } } : {}),
    },
  };
}

/** CH9: key in `X-Agp-Channel-Key` from an allowed origin; a visitor is no tenant person. */
export function webInbound(
  settings: ChannelSettings,
  secrets: ChannelSecrets,
  request: InboundRequest,
): Inbound {
  const why = webCallerFault(settings, secrets, request.headers);
  if (why) {
    return why;
  }
  const body = request.body as Record<string, unknown> | undefined;
  const invalid =
    messageFault(body) ??
    idFault(body?.sessionId, 'sessionId') ??
    idFault(body?.messageId, 'messageId');
  if (invalid) {
    return fault(400, invalid);
  }
  return {
    kind: 'event',
    externalId: typeof body!.messageId === 'string' ? body!.messageId : randomUUID(),
    retry: false,
    message: {
      text: String(body!.text),
      ...(typeof body!.sessionId === 'string' ? { thread: { id: body!.sessionId } } : {}),
    },
  };
}

/** CH9: the key (constant time) and the page's origin, for the POST and the reply's GET alike. */
export function webCallerFault(
  settings: ChannelSettings,
  secrets: ChannelSecrets,
  headers: IncomingHttpHeaders,
): Inbound | undefined {
  const key = headers['x-agp-channel-key'];
  const given = Buffer.from(typeof key === 'string' ? key : '');
  const accepted = acceptedSecrets(
    secrets.channelKey,
    secrets.previousChannelKey,
    secrets.previousUntil,
    Date.now(),
  ).map((one) => Buffer.from(one));
  if (!accepted.some((one) => one.length === given.length && timingSafeEqual(given, one))) {
    return fault(401, 'X-Agp-Channel-Key is missing or not this channel’s key');
  }
  if (!isAllowedOrigin(settings, headers.origin)) {
    return fault(
      403,
      `origin ${String(headers.origin ?? '(none)')} is not allowed for this channel`,
    );
  }
  return undefined;
}

export function isAllowedOrigin(settings: ChannelSettings, origin: string | undefined): boolean {
  return typeof origin === 'string' && (settings.allowedOrigins ?? []).includes(origin);
}

function messageFault(body: Record<string, unknown> | undefined): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    return 'the body must be a JSON object';
  }
  if (
    typeof body.text !== 'string' ||
    body.text.length === 0 ||
    body.text.length > MAX_CHANNEL_TEXT
  ) {
    return `text must be a string of 1 to ${MAX_CHANNEL_TEXT} characters`;
  }
  return undefined;
}

function idFault(value: unknown, field: string): string | undefined {
  return value === undefined ||
    (typeof value === 'string' && value.length > 0 && value.length <= 200)
    ? undefined
    : `${field} must be a string of 1 to 200 characters`;
}

function senderFault(value: unknown): string | undefined {
  if (value === undefined) {
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return 'sender must be an object {id?, email?, name?}';
  }
  const sender = value as Record<string, unknown>;
  for (const field of ['id', 'email', 'name']) {
    if (idFault(sender[field], `sender.${field}`)) {
      return idFault(sender[field], `sender.${field}`);
    }
  }
  return undefined;
}

function pickSender(sender: ChannelSender): ChannelSender {
  return {
    ...(sender.id ? { id: sender.id } : {}),
    ...(sender.email ? { email: sender.email } : {}),
    ...(sender.name ? { name: sender.name } : {}),
  };
}
