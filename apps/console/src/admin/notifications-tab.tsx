import { MultiSelect, Select, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import type { NotificationTargetResponse } from '../api/contracts/relay';
import {
  NotificationEvent,
  NotificationSeverity,
  NotificationTargetKind,
  notifications,
} from '../api/notifications-api';
import { useAction } from '../api/use-action';
import { CreateForm } from '../components/create-form';
import { ErrorAlert } from '../components/error-alert';
import { ResourceTable } from '../components/resource-table';
import { SecretDialog } from '../components/secret-dialog';
import { useCan } from '../layout/permissions';
import { NotificationDeliveries } from './notification-deliveries';
import {
  EMPTY_FIELDS,
  NotificationTargetFields,
  TargetFields,
  configOf,
} from './notification-target-fields';

const KINDS = [
  { value: 'EMAIL', label: 'E-mail (SMTP)' },
  { value: 'SLACK', label: 'Slack' },
  { value: 'WEBHOOK', label: 'Webhook (Standard Webhooks)' },
];
const EVENTS = [
  { value: 'HITL_REQUEST_CREATED', label: 'New human-review holds' },
  { value: 'ALERT_RAISED', label: 'Alerts' },
  { value: 'KILL_SWITCH_ENGAGED', label: 'Kill switches engaged' },
];
const SEVERITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'];
const KEY = ['notification-targets'];

/** Where a target sends, as a reader recognises it (credentials never shown). */
function destinationOf(target: NotificationTargetResponse): string {
  const c = target.config;
  switch (target.kind) {
    case 'EMAIL':
      return Array.isArray(c.to) ? c.to.map(String).join(', ') : '—';
    case 'SLACK':
      return typeof c.channel === 'string' ? c.channel : '—';
    case 'WEBHOOK':
      return typeof c.url === 'string' ? c.url : '—';
  }
}

/** D58: the tenant's notification targets, what goes to each, and what was sent. */
export function NotificationsTab() {
  const mayWrite = useCan('NOTIFICATIONS', 'WRITE');
  const mayDelete = useCan('NOTIFICATIONS', 'DELETE');
  const [name, setName] = useState('');
  const [kind, setKind] = useState<NotificationTargetKind>('EMAIL');
  const [events, setEvents] = useState<string[]>(['HITL_REQUEST_CREATED']);
  const [minSeverity, setMinSeverity] = useState<string | null>(null);
  const [fields, setFields] = useState<TargetFields>(EMPTY_FIELDS);
  const [watched, setWatched] = useState<NotificationTargetResponse | null>(null);
  const [shown, setShown] = useState<{ title: string; secret: string } | null>(null);
  const targets = useQuery({ queryKey: KEY, queryFn: notifications.targets });
  const create = useAction(
    () =>
      notifications.create({
        name,
        kind,
        events: events as NotificationEvent[],
        ...(minSeverity ? { minSeverity: minSeverity as NotificationSeverity } : {}),
        config: configOf(kind, fields),
      }),
    KEY,
  );
  const toggle = useAction(
    (t: NotificationTargetResponse) => notifications.setEnabled(t.id, !t.enabled),
    KEY,
  );
  const remove = useAction((id: string) => notifications.remove(id), KEY);

  return (
    <Stack>
      <ErrorAlert error={targets.error ?? toggle.error ?? remove.error} />
      <ResourceTable
        rows={targets.data?.items}
        empty="No notification targets yet."
        nameOf={(t) => t.name}
        columns={[
          { label: 'Name', render: (t) => t.name },
          { label: 'Kind', render: (t) => t.kind },
          { label: 'Sends', render: (t) => t.events.join(', ') },
          { label: 'Alerts from', render: (t) => t.minSeverity ?? 'any' },
          { label: 'To', render: destinationOf },
          { label: 'State', render: (t) => (t.enabled ? 'on' : 'paused') },
        ]}
        actions={[
          {
            label: 'Deliveries',
            nameFor: (t) => `Deliveries of ${t.name}`,
            run: setWatched,
          },
          ...(mayWrite
            ? [
                {
                  label: 'Pause or resume',
                  // The visible label within the name (WCAG 2.5.3); the State column says which.
                  nameFor: (t: NotificationTargetResponse) => `Pause or resume ${t.name}`,
                  run: (t: NotificationTargetResponse) => toggle.mutate(t),
                },
              ]
            : []),
        ]}
        onDelete={mayDelete ? (t) => remove.mutate(t.id) : undefined}
      />
      {watched ? <NotificationDeliveries target={watched} /> : null}
      {mayWrite ? (
        <CreateForm
          legend="Add a notification target"
          submitLabel="Add target"
          pending={create.isPending}
          error={create.error}
          onSubmit={() =>
            create.mutate(undefined, {
              onSuccess: (created) => {
                if (created.secret) {
                  setShown({ title: `Signing secret of ${created.name}`, secret: created.secret });
                }
                setName('');
                setFields(EMPTY_FIELDS);
              },
            })
          }
        >
          <TextInput
            label="Target name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
          />
          <Select
            label="Kind"
            data={KINDS}
            value={kind}
            onChange={(value) => setKind((value ?? 'EMAIL') as NotificationTargetKind)}
            allowDeselect={false}
          />
          <MultiSelect label="Send" data={EVENTS} value={events} onChange={setEvents} />
          <Select
            label="Alerts from severity"
            placeholder="any"
            data={SEVERITIES}
            value={minSeverity}
            onChange={setMinSeverity}
            clearable
          />
          <NotificationTargetFields kind={kind} fields={fields} onChange={setFields} />
        </CreateForm>
      ) : null}
      {shown ? (
        <SecretDialog
          title={shown.title}
          secret={shown.secret}
          explanation="The Standard Webhooks signing secret of this target, shown this once: copy it now and give it to the receiver, which verifies every notification with it. It cannot be shown again."
          onClose={() => setShown(null)}
        />
      ) : null}
    </Stack>
  );
}
