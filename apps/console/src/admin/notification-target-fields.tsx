import { NumberInput, PasswordInput, TextInput } from '@mantine/core';

import type { NotificationTargetKind } from '../api/notifications-api';

/** What the form holds for every kind; only the chosen kind's fields are sent. */
export interface TargetFields {
  host: string;
  port: number;
  from: string;
  to: string;
  username: string;
  password: string;
  botToken: string;
  channel: string;
  apiBaseUrl: string;
  url: string;
}

export const EMPTY_FIELDS: TargetFields = {
  host: '',
  port: 587,
  from: '',
  to: '',
  username: '',
  password: '',
  botToken: '',
  channel: '',
  apiBaseUrl: '',
  url: '',
};

/** D58's `config` of a kind, from the form (optional fields left out when empty). */
export function configOf(kind: NotificationTargetKind, f: TargetFields): Record<string, unknown> {
  const optional = (key: string, value: string) => (value ? { [key]: value } : {});
  switch (kind) {
    case 'EMAIL':
      return {
        host: f.host,
        port: f.port,
        from: f.from,
        to: f.to
          .split(',')
          .map((address) => address.trim())
          .filter(Boolean),
        ...optional('username', f.username),
        ...optional('password', f.password),
      };
    case 'SLACK':
      return { botToken: f.botToken, channel: f.channel, ...optional('apiBaseUrl', f.apiBaseUrl) };
    case 'WEBHOOK':
      return { url: f.url };
  }
}

interface Props {
  kind: NotificationTargetKind;
  fields: TargetFields;
  onChange: (fields: TargetFields) => void;
}

/** The inputs of one kind's `config`; credentials are password inputs, never shown back. */
export function NotificationTargetFields({ kind, fields, onChange }: Props) {
  const text = (key: keyof TargetFields, label: string, required = true) => (
    <TextInput
      label={label}
      value={String(fields[key])}
      onChange={(e) => onChange({ ...fields, [key]: e.currentTarget.value })}
      required={required}
    />
  );
  const secret = (key: keyof TargetFields, label: string, required: boolean) => (
    <PasswordInput
      label={label}
      value={String(fields[key])}
      onChange={(e) => onChange({ ...fields, [key]: e.currentTarget.value })}
      required={required}
    />
  );
  switch (kind) {
    case 'EMAIL':
      return (
        <>
          {text('host', 'SMTP host')}
          <NumberInput
            label="SMTP port"
            min={1}
            max={65_535}
            value={fields.port}
            onChange={(value) => onChange({ ...fields, port: Number(value) })}
            required
          />
          {text('from', 'From address')}
          {text('to', 'To (comma-separated)')}
          {text('username', 'SMTP user name', false)}
          {secret('password', 'SMTP password', false)}
        </>
      );
    case 'SLACK':
      return (
        <>
          {secret('botToken', 'Bot token', true)}
          {text('channel', 'Channel ID')}
          {text('apiBaseUrl', 'Slack API base URL (optional)', false)}
        </>
      );
    case 'WEBHOOK':
      return text('url', 'Webhook URL');
  }
}
