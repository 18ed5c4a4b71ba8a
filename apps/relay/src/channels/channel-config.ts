import { randomBytes } from 'node:crypto';

import { isURL } from 'class-validator';

import {
  AI_DISCLOSURE_MODES,
  AiDisclosureMode,
  CONTENT_MARKING_MODES,
  ContentMarkingMode,
  MAX_DISCLOSURE_TEXT,
} from '../traffic-settings/traffic-settings.types';
import { ChannelKind } from './channels.constants';

/** What a write-only setting reads as once set (D37). */
export const SECRET_MASK = '********';

/** The secrets of a channel, sealed together in one column (D37, channels.md CH1). */
export interface ChannelSecrets {
  /** SLACK: the app's signing secret; WEBHOOK: the `whsec_` secret of both directions (CH7). */
  signingSecret?: string;
  /** SLACK: the bot token `chat.postMessage` is called with. */
  botToken?: string;
  /** WEB: the channel key the embedded chat sends (CH9). */
  channelKey?: string;
  /** CH19: the secret a rotation replaced, still accepted (and still signing) until `previousUntil`. */
  previousSigningSecret?: string;
  previousChannelKey?: string;
  /** CH19: ISO time the previous secret stops counting. */
  previousUntil?: string;
}

/** CH19: what a rotation left of the previous secret, kept through changes of the settings. */
function previousOf(kept: ChannelSecrets): ChannelSecrets {
  return kept.previousUntil
    ? {
        ...(kept.previousSigningSecret
          ? { previousSigningSecret: kept.previousSigningSecret }
          : {}),
        ...(kept.previousChannelKey ? { previousChannelKey: kept.previousChannelKey } : {}),
        previousUntil: kept.previousUntil,
      }
    : {};
}

/** CH19: the secrets a request may be proven with now: the current one, then a previous one in its grace. */
export function acceptedSecrets(
  current: string | undefined,
  previous: string | undefined,
  previousUntil: string | undefined,
  nowMs: number,
): string[] {
  const graced = previous && previousUntil && Date.parse(previousUntil) > nowMs ? [previous] : [];
  return current ? [current, ...graced] : graced;
}

/** The settings of a channel that may be read back (D56). */
export interface ChannelSettings {
  /** SLACK: where Slack's Web API is (CH6); Slack's public API when absent. */
  apiBaseUrl?: string;
  /** WEBHOOK: where the agent's replies are posted, signed (CH7). */
  url?: string;
  /** WEB: the origins whose pages may embed the chat (CH9). */
  allowedOrigins?: string[];
  /** D57, channels.md CH14: the tenant's disclosure settings, overridden for this channel. */
  aiDisclosure?: AiDisclosureMode;
  aiDisclosureText?: string;
  contentMarking?: ContentMarkingMode;
}

/** CH14: what every kind with an adapter takes besides its own settings. */
const DISCLOSURE_FIELDS = ['aiDisclosure', 'aiDisclosureText', 'contentMarking'] as const;

/** A field of `config` that is wrong, in D12's words. */
export class ChannelConfigError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** What a create or change stores: the readable settings, the secrets, and what is answered once. */
export interface PreparedConfig {
  settings: ChannelSettings;
  secrets: ChannelSecrets;
  /** Secrets the platform made (a webhook's `whsec_`, a web chat's key): answered this once. */
  answeredOnce: Partial<ChannelSecrets>;
}

/** Slack's Web API (D56's default). */
export const SLACK_API_BASE_URL = 'https://slack.com/api';

/** D56: `kept` secrets survive a change omitting them; kinds without an adapter take no config. */
export function prepareConfig(
  kind: ChannelKind,
  config: Record<string, unknown> | undefined,
  kept: ChannelSecrets = {},
): PreparedConfig {
  const given = config ?? {};
  switch (kind) {
    case 'SLACK': {
      onlyFields(given, ['signingSecret', 'botToken', 'apiBaseUrl', ...DISCLOSURE_FIELDS]);
      const signingSecret = optionalText(given, 'signingSecret', 200) ?? kept.signingSecret;
      const botToken = optionalText(given, 'botToken', 500) ?? kept.botToken;
      const apiBaseUrl = optionalUrl(given, 'apiBaseUrl');
      return {
        settings: { ...(apiBaseUrl ? { apiBaseUrl } : {}), ...disclosureOf(given) },
        secrets: {
          ...(signingSecret ? { signingSecret } : {}),
          ...(botToken ? { botToken } : {}),
        },
        answeredOnce: {},
      };
    }
    case 'WEBHOOK': {
      onlyFields(given, ['url', ...DISCLOSURE_FIELDS]);
      const url = optionalUrl(given, 'url');
      const signingSecret = kept.signingSecret ?? newStandardWebhookSecret();
      return {
        settings: { ...(url ? { url } : {}), ...disclosureOf(given) },
        secrets: { signingSecret, ...previousOf(kept) },
        answeredOnce: kept.signingSecret ? {} : { signingSecret },
      };
    }
    case 'WEB': {
      onlyFields(given, ['allowedOrigins', ...DISCLOSURE_FIELDS]);
      const allowedOrigins = originsOf(given.allowedOrigins);
      const channelKey = kept.channelKey ?? newChannelKey();
      return {
        settings: { allowedOrigins, ...disclosureOf(given) },
        secrets: { channelKey, ...previousOf(kept) },
        answeredOnce: kept.channelKey ? {} : { channelKey },
      };
    }
    case 'TEAMS':
    case 'EMAIL':
    case 'OTHER':
      onlyFields(given, []);
      return { settings: {}, secrets: {}, answeredOnce: {} };
  }
}

/** The `config` a read answers: the settings, each secret set as `"********"` (D37). */
export function readableConfig(
  settings: ChannelSettings | undefined,
  secretNames: readonly string[],
  answeredOnce: Partial<ChannelSecrets> = {},
): Record<string, unknown> {
  const masks = Object.fromEntries(secretNames.map((name) => [name, SECRET_MASK]));
  return { ...settings, ...masks, ...answeredOnce };
}

export function secretNamesOf(kind: string, secrets: ChannelSecrets | undefined): string[] {
  const named = kind === 'WEB' ? ['channelKey'] : ['signingSecret', 'botToken'];
  return Object.keys(secrets ?? {}).filter((name) => named.includes(name));
}

/** Standard Webhooks: `whsec_` and the base64 of 32 random bytes (the key is those bytes). */
export function newStandardWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** CH9: a web chat's key, `agpck_` and 32 random bytes. */
export function newChannelKey(): string {
  return `agpck_${randomBytes(32).toString('base64url')}`;
}

/** An origin as browsers send it: `scheme://host[:port]`, nothing after. */
export function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

/** CH14: the overrides given, each checked as the tenant's setting is. */
function disclosureOf(given: Record<string, unknown>): Partial<ChannelSettings> {
  const mode = given.aiDisclosure;
  if (mode !== undefined && !(AI_DISCLOSURE_MODES as readonly unknown[]).includes(mode)) {
    throw new ChannelConfigError(
      'config.aiDisclosure',
      `must be one of ${AI_DISCLOSURE_MODES.join(', ')}`,
    );
  }
  const marking = given.contentMarking;
  if (marking !== undefined && !(CONTENT_MARKING_MODES as readonly unknown[]).includes(marking)) {
    throw new ChannelConfigError(
      'config.contentMarking',
      `must be one of ${CONTENT_MARKING_MODES.join(', ')}`,
    );
  }
  const text = optionalText(given, 'aiDisclosureText', MAX_DISCLOSURE_TEXT);
  return {
    ...(mode !== undefined ? { aiDisclosure: mode as AiDisclosureMode } : {}),
    ...(text !== undefined ? { aiDisclosureText: text } : {}),
    ...(marking !== undefined ? { contentMarking: marking as ContentMarkingMode } : {}),
  };
}

function originsOf(value: unknown): string[] {
  if (value === undefined) {
    return [];
  }
  if (!Array.isArray(value) || value.length > 50) {
    throw new ChannelConfigError('config.allowedOrigins', 'must be an array of at most 50 origins');
  }
  for (const origin of value) {
    if (typeof origin !== 'string' || !isOrigin(origin)) {
      throw new ChannelConfigError(
        'config.allowedOrigins',
        `each must be an origin such as https://shop.example (got ${JSON.stringify(origin)})`,
      );
    }
  }
  return [...new Set(value as string[])];
}

function onlyFields(given: Record<string, unknown>, allowed: readonly string[]): void {
  const unknown = Object.keys(given).find((key) => !allowed.includes(key));
  if (unknown !== undefined) {
    throw new ChannelConfigError(
      `config.${unknown}`,
      allowed.length > 0
        ? `is not a setting of this kind (settings: ${allowed.join(', ')})`
        : 'this kind of channel has no settings',
    );
  }
}

function optionalText(given: Record<string, unknown>, field: string, max: number) {
  const value = given[field];
  if (value === undefined) {
    return undefined;
  }
  if (typeof value !== 'string' || value.length === 0 || value.length > max) {
    throw new ChannelConfigError(`config.${field}`, `must be a string of 1 to ${max} characters`);
  }
  return value;
}

function optionalUrl(given: Record<string, unknown>, field: string): string | undefined {
  const value = given[field];
  if (value === undefined) {
    return undefined;
  }
  if (
    typeof value !== 'string' ||
    !isURL(value, { protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  ) {
    throw new ChannelConfigError(`config.${field}`, 'must be an http or https URL');
  }
  return value.replace(/\/+$/, '');
}
