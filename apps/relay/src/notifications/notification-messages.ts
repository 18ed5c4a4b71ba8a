import { Notice, NotificationEvent } from './notification.types';

/** The stored notification: what a WEBHOOK target receives and what Slack and e-mail render. */
export interface NotificationBody {
  /** The delivery id, also `webhook-id` (receivers deduplicate on it). */
  id: string;
  type: NotificationEvent;
  /** When the event happened (Standard Webhooks' payload field). */
  timestamp: string;
  tenantId: string;
  data: Record<string, string | string[]>;
}

/** Built once per delivery and stored: every attempt sends these bytes (as W4 for webhooks). */
export function notificationBody(
  notice: Notice,
  event: { tenantId: string; occurredAt: string },
  id: string,
): NotificationBody {
  return {
    id,
    type: notice.event,
    timestamp: event.occurredAt,
    tenantId: event.tenantId,
    data: { ...notice.data, ...(notice.link ? { link: notice.link } : {}) },
  };
}

const TITLES: Readonly<Record<NotificationEvent, string>> = {
  HITL_REQUEST_CREATED: 'A message is held for human review',
  ALERT_RAISED: 'An alert was raised',
  KILL_SWITCH_ENGAGED: 'A kill switch was engaged',
};

/** The fields a person reads, in this order; `link` is rendered as the call to action. */
function lines(body: NotificationBody): Array<[string, string]> {
  return Object.entries(body.data)
    .filter(([key]) => key !== 'link')
    .map(([key, value]) => [key, Array.isArray(value) ? value.join(', ') : value]);
}

function subjectId(body: NotificationBody): string {
  const { hitlRequestId, alertId, killSwitchId } = body.data;
  return String(hitlRequestId ?? alertId ?? killSwitchId ?? body.id);
}

/** W18: Slack's `chat.postMessage` text, in its mrkdwn (`<url|label>` links). */
export function slackText(body: NotificationBody): string {
  const severity = body.data.severity ? ` (${String(body.data.severity)})` : '';
  const head = `*${TITLES[body.type]}*${severity}`;
  const facts = lines(body).map(([key, value]) => `• ${key}: \`${slackEscape(value)}\``);
  const link = body.data.link ? [`<${String(body.data.link)}|Open it in the console>`] : [];
  return [head, ...facts, ...link].join('\n');
}

export interface EmailMessage {
  subject: string;
  text: string;
  html: string;
}

/** W19: the e-mail of a notification, as plain text and HTML with the same facts and link. */
export function emailMessage(body: NotificationBody): EmailMessage {
  const severity = body.data.severity ? ` [${String(body.data.severity)}]` : '';
  const subject = `${TITLES[body.type]}${severity}: ${subjectId(body)}`;
  const facts = lines(body);
  const link = body.data.link ? String(body.data.link) : undefined;
  const text = [
    `${TITLES[body.type]}.`,
    '',
    ...facts.map(([key, value]) => `${key}: ${value}`),
    ...(link ? ['', `Open it: ${link}`] : []),
    '',
    `Notification ${body.id} at ${body.timestamp}.`,
  ].join('\n');
  const html = [
    `<p>${htmlEscape(TITLES[body.type])}.</p>`,
    '<ul>',
    ...facts.map(
      ([key, value]) => `<li>${htmlEscape(key)}: <code>${htmlEscape(value)}</code></li>`,
    ),
    '</ul>',
    ...(link ? [`<p><a href="${htmlEscape(link)}">Open it in the console</a></p>`] : []),
    `<p>Notification ${htmlEscape(body.id)} at ${htmlEscape(body.timestamp)}.</p>`,
  ].join('\n');
  return { subject, text, html };
}

function htmlEscape(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Slack's three control characters in mrkdwn text. */
function slackEscape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
