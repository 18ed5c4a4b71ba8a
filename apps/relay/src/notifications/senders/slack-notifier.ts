import { Injectable } from '@nestjs/common';

import { NotificationBody, slackText } from '../notification-messages';
import { SendOutcome } from '../notification.types';
import { HttpAnswer, NotificationHttp } from './notification-http';

/** Slack's Web API, where `apiBaseUrl` is absent (D58). */
export const SLACK_API_BASE_URL = 'https://slack.com/api';

export interface SlackConfig {
  channel: string;
  apiBaseUrl?: string;
}

/** D58, W18: Slack refuses with 200 and `ok: false`: that is a failed attempt. */
@Injectable()
export class SlackNotifier {
  constructor(private readonly http: NotificationHttp) {}

  send(config: SlackConfig, botToken: string, body: NotificationBody): Promise<SendOutcome> {
    const base = (config.apiBaseUrl ?? SLACK_API_BASE_URL).replace(/\/+$/, '');
    return this.http.post(
      `${base}/chat.postMessage`,
      {
        'content-type': 'application/json; charset=utf-8',
        authorization: `Bearer ${botToken}`,
      },
      JSON.stringify({
        channel: config.channel,
        text: slackText(body),
        unfurl_links: false,
        unfurl_media: false,
      }),
      judgeSlackAnswer,
    );
  }
}

export function judgeSlackAnswer({ statusCode, text }: HttpAnswer): string | undefined {
  if (statusCode !== 200) {
    return `Slack answered ${statusCode}`;
  }
  try {
    const answer = JSON.parse(text) as { ok?: unknown; error?: unknown };
    const error = typeof answer.error === 'string' ? answer.error : 'not ok';
    return answer.ok === true ? undefined : `Slack refused: ${error}`;
  } catch {
    return 'Slack answered something other than JSON';
  }
}
