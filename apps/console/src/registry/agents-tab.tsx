import { Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import type { AgentResponse } from '../api/contracts/relay';
import { registry } from '../api/registry-api';
import { useAction } from '../api/use-action';
import { ConfirmDialog } from '../components/confirm-dialog';
import { CreateForm } from '../components/create-form';
import { ErrorAlert } from '../components/error-alert';
import { ResourceTable } from '../components/resource-table';
import { SecretDialog } from '../components/secret-dialog';
import { When } from '../components/when';
import { useCan } from '../layout/permissions';
import { EditAgentDialog } from './edit-agent-dialog';

/** A client secret to show once: on registration or rotation (D30). */
interface ShownSecret {
  title: string;
  secret: string;
}

/** Agents (D30): identities in tenant-auth, metadata in the relay; a secret is shown once. */
export function AgentsTab() {
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<AgentResponse | null>(null);
  const [rotating, setRotating] = useState<AgentResponse | null>(null);
  const [shown, setShown] = useState<ShownSecret | null>(null);
  // What the relay's list should show once tenant-auth's event reaches it (D30).
  const [awaited, setAwaited] = useState<{ id: string; name: string } | null>(null);
  const mayWrite = useCan('REGISTRY', 'WRITE');
  const mayDelete = useCan('REGISTRY', 'DELETE');
  const create = useAction(() => registry.createAgent(name), ['agents']);
  const agents = useQuery({
    queryKey: ['agents'],
    queryFn: registry.agents,
    // The relay learns of a new or renamed agent from tenant-auth's event, a moment after the
    // change; until its list shows it, the list is asked for again.
    refetchInterval: (query) =>
      awaited &&
      !query.state.data?.items.some((a) => a.id === awaited.id && a.name === awaited.name)
        ? 1_000
        : false,
  });
  const remove = useAction((id: string) => registry.deleteAgent(id), ['agents']);
  const rotate = useAction((id: string) => registry.rotateAgentSecret(id), ['agents']);

  return (
    <Stack>
      <ErrorAlert error={agents.error ?? remove.error} />
      <ResourceTable
        rows={agents.data?.items}
        empty="No agents yet."
        nameOf={(a) => a.name}
        columns={[
          { label: 'Name', render: (a) => a.name },
          { label: 'Status', render: (a) => a.status },
          { label: 'Visibility', render: (a) => a.visibility },
          { label: 'Risk tier', render: (a) => a.riskTier ?? '—' },
          { label: 'Created', render: (a) => <When at={a.createdAt} /> },
        ]}
        onEdit={mayWrite ? setEditing : undefined}
        actions={
          mayWrite
            ? [
                {
                  label: 'Rotate secret',
                  nameFor: (a) => `Rotate secret of ${a.name}`,
                  run: (a) => {
                    rotate.reset();
                    setRotating(a);
                  },
                },
              ]
            : []
        }
        onDelete={mayDelete ? (a) => remove.mutate(a.id) : undefined}
      />
      {editing ? (
        <EditAgentDialog
          agent={editing}
          onRenamed={(newName) => setAwaited({ id: editing.id, name: newName })}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {rotating ? (
        <ConfirmDialog
          title={`Rotate the secret of ${rotating.name}?`}
          confirmLabel="Rotate secret"
          pending={rotate.isPending}
          error={rotate.error}
          onClose={() => setRotating(null)}
          onConfirm={() =>
            rotate.mutate(rotating.id, {
              onSuccess: (rotated) => {
                setRotating(null);
                setShown({
                  title: `New client secret of ${rotated.name}`,
                  secret: rotated.clientSecret,
                });
              },
            })
          }
        >
          <Text>
            A new client secret is made and shown once. The current one stops working at once: the
            agent cannot get a token until it is given the new one.
          </Text>
        </ConfirmDialog>
      ) : null}
      {mayWrite ? (
        <CreateForm
          legend="Register an agent"
          submitLabel="Register"
          pending={create.isPending}
          error={create.error}
          onSubmit={() =>
            create.mutate(undefined, {
              onSuccess: (created) => {
                setName('');
                setAwaited({ id: created.id, name: created.name });
                setShown({
                  title: `Agent ${created.name} registered`,
                  secret: created.clientSecret,
                });
              },
            })
          }
        >
          <TextInput
            label="Agent name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
          />
        </CreateForm>
      ) : null}
      {shown ? (
        <SecretDialog title={shown.title} secret={shown.secret} onClose={() => setShown(null)} />
      ) : null}
    </Stack>
  );
}
