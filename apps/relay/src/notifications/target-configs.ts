import { isIP } from 'node:net';

import { FieldError, HttpProblem, toFieldErrors } from '@agp/http';
import { plainToInstance } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsEmail,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  validateSync,
} from 'class-validator';

import { EgressOptions, checkEgressUrl } from '../common/egress-policy';
import { HEADER_VALUE, HEADER_VALUE_MESSAGE, IsUpstreamUrl } from '../common/upstream-fields';
import { NotificationTargetKind, SECRET_CONFIG_FIELDS } from './notification.types';

/** A host name (RFC 1123 labels) or an IP literal. */
const HOST =
  /^(?=.{1,253}$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** D58 EMAIL: `{host, port, from, to[], username?, password?}`. */
export class EmailConfigDto {
  @IsString()
  @Length(1, 253)
  @Matches(HOST, { message: 'host must be a host name or an IPv4 address' })
  host: string;

  @IsInt()
  @Min(1)
  @Max(65_535)
  port: number;

  @IsEmail()
  from: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsEmail({}, { each: true })
  to: string[];

  @IsOptional()
  @IsString()
  @Length(1, 320)
  username?: string;

  @IsOptional()
  @IsString()
  @Length(1, 1_024)
  password?: string;
}

/** D58 SLACK: `{botToken, channel, apiBaseUrl?}`; the token travels as a bearer header. */
export class SlackConfigDto {
  @IsString()
  @Length(1, 8_192)
  @Matches(HEADER_VALUE, { message: HEADER_VALUE_MESSAGE.replace('credential', 'botToken') })
  botToken: string;

  @IsString()
  @Length(1, 200)
  channel: string;

  @IsOptional()
  @IsUpstreamUrl()
  apiBaseUrl?: string;
}

/** D58 WEBHOOK: `{url}`; its signing secret is the relay's to make (W16). */
export class WebhookConfigDto {
  @IsUpstreamUrl()
  url: string;
}

const CONFIG_CLASSES: Readonly<Record<NotificationTargetKind, new () => object>> = {
  EMAIL: EmailConfigDto,
  SLACK: SlackConfigDto,
  WEBHOOK: WebhookConfigDto,
};

/** A checked config, split into what reads may show and the credentials sealed apart. */
export interface SplitConfig {
  config: Record<string, unknown>;
  secrets: Record<string, string>;
}

/** D12, D37: every bad field listed as `config.<field>`, unknown fields refused. */
export function checkTargetConfig(
  kind: NotificationTargetKind,
  config: Record<string, unknown>,
  egress: EgressOptions,
): SplitConfig {
  const checked = plainToInstance(CONFIG_CLASSES[kind], config);
  const errors: FieldError[] = toFieldErrors(
    validateSync(checked, { whitelist: true, forbidNonWhitelisted: true }),
    'config',
  );
  if (errors.length === 0) {
    errors.push(...egressErrors(kind, config, egress));
  }
  if (errors.length > 0) {
    throw HttpProblem.validation(errors);
  }
  const secretNames = SECRET_CONFIG_FIELDS[kind];
  const visible: Record<string, unknown> = {};
  const secrets: Record<string, string> = {};
  for (const [key, value] of Object.entries(config)) {
    if (secretNames.includes(key)) {
      secrets[key] = String(value);
    } else {
      visible[key] = value;
    }
  }
  if (kind === 'EMAIL' && visible.username === undefined) {
    // A password without a user name authenticates nobody: it is not kept (W15).
    delete secrets.password;
  }
  return { config: visible, secrets };
}

function egressErrors(
  kind: NotificationTargetKind,
  config: Record<string, unknown>,
  egress: EgressOptions,
): FieldError[] {
  const check = (field: string, url: string | undefined): FieldError[] => {
    const refusal = url === undefined ? null : checkEgressUrl(url, egress);
    return refusal ? [{ field: `config.${field}`, message: `${field}: ${refusal} (D37)` }] : [];
  };
  switch (kind) {
    case 'WEBHOOK':
      return check('url', config.url as string);
    case 'SLACK':
      return check('apiBaseUrl', config.apiBaseUrl as string | undefined);
    case 'EMAIL': {
      const host = String(config.host);
      return check('host', isIP(host) === 6 ? `https://[${host}]/` : `https://${host}/`);
    }
  }
}
