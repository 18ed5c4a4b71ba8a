import { Select, Stack, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';

import type { CatalogEntry } from '../api/contracts/relay';
import { ChannelKind, conversations } from '../api/conversations-api';
import { useAction } from '../api/use-action';
import { CreateForm } from '../components/create-form';
import { ErrorAlert } from '../components/error-alert';
import { ResourceTable } from '../components/resource-table';
import { SecretDialog } from '../components/secret-dialog';
import { When } from '../components/when';
import { useCan } from '../layout/permissions';
import { text } from '../registry/catalog-text';

const KINDS = [
  { value: 'SLACK', label: 'Slack' },
  { value: 'WEBHOOK', label: 'Webhook (Standard Webhooks)' },
  { value: 'WEB', label: 'Web chat' },
];
const KEY = ['channels'];

interface Fields {
  signingSecret: string;
  botToken: string;
  url: string;
  allowedOrigins: string;
}

function configOf(kind: ChannelKind, f: Fields): Record<string, unknown> {
  switch (kind) {
    case 'SLACK':
      return { signingSecret: f.signingSecret, botToken: f.botToken };
    case 'WEBHOOK':
      return { url: f.url };
    case 'WEB':
      return {
        allowedOrigins: f.allowedOrigins
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean),
      };
  }
}

/** D56: what a new channel answers once (a webhook's `whsec_…`, a web chat's key). */
function secretOf(created: CatalogEntry): string | undefined {
  const config = (created.config ?? {}) as Record<string, unknown>;
  const value = config.channelKey ?? config.signingSecret;
  return typeof value === 'string' && !value.startsWith('*') ? value : undefined;
}

/** D43, D56: the channels people reach agents through, each with its conversations (D44). */
export function ChannelsPage() {
  const mayWrite = useCan('CHANNELS', 'WRITE');
  const mayDelete = useCan('CHANNELS', 'DELETE');
  const [name, setName] = useState('');
  const [kind, setKind] = useState<ChannelKind>('WEBHOOK');
  const [fields, setFields] = useState<Fields>({
    signingSecret: '',
    botToken: '',
    url: '',
    allowedOrigins: '',
  });
  const [secret, setSecret] = useState<string | undefined>();
  const list = useQuery({ queryKey: KEY, queryFn: conversations.channels });
  const create = useAction(
    () => conversations.createChannel({ name, kind, config: configOf(kind, fields) }),
    KEY,
  );
  const remove = useAction((id: string) => conversations.deleteChannel(id), KEY);
  const field = (key: keyof Fields, label: string, type = 'text') => (
    <TextInput
      label={label}
      type={type}
      value={fields[key]}
      onChange={(e) => {
        const value = e.currentTarget.value;
        setFields((f) => ({ ...f, [key]: value }));
      }}
      required
    />
  );

  return (
    <Stack>
      <Title order={2}>Channels</Title>
      <ErrorAlert error={list.error ?? remove.error} />
      <ResourceTable
        rows={list.data?.items}
        empty="No channels yet."
        nameOf={(c) => c.name}
        columns={[
          { label: 'Name', render: (c) => c.name },
          { label: 'Kind', render: (c) => text(c.kind) },
          {
            label: 'Conversations',
            render: (c) => <Link to={`/conversations?channelId=${c.id}`}>Conversations</Link>,
          },
          { label: 'Created', render: (c) => <When at={c.createdAt} /> },
        ]}
        onDelete={mayDelete ? (c) => remove.mutate(c.id) : undefined}
      />
      {mayWrite ? (
        <CreateForm
          legend="Add a channel"
          submitLabel="Add"
          pending={create.isPending}
          error={create.error}
          onSubmit={() =>
            create.mutate(undefined, {
              onSuccess: (created) => {
                setName('');
                setSecret(secretOf(created));
              },
            })
          }
        >
          <TextInput
            label="Channel name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
          />
          <Select
            label="Kind"
            data={KINDS}
            value={kind}
            allowDeselect={false}
            onChange={(value) => setKind((value ?? 'WEBHOOK') as ChannelKind)}
          />
          {kind === 'SLACK' ? field('signingSecret', 'Signing secret', 'password') : null}
          {kind === 'SLACK' ? field('botToken', 'Bot token', 'password') : null}
          {kind === 'WEBHOOK' ? field('url', 'Reply address', 'url') : null}
          {kind === 'WEB' ? field('allowedOrigins', 'Allowed origins (comma separated)') : null}
        </CreateForm>
      ) : null}
      {secret ? (
        <SecretDialog
          title="Channel added"
          secret={secret}
          explanation="The channel's signing secret or web chat key, shown this once."
          onClose={() => setSecret(undefined)}
        />
      ) : null}
    </Stack>
  );
}
