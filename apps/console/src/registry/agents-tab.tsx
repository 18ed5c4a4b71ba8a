import { Alert, Code, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import type { AgentResponse } from '../api/contracts/relay';
import { registry } from '../api/registry-api';
import { useAction } from '../api/use-action';
import { CreateForm } from '../components/create-form';
import { ErrorAlert } from '../components/error-alert';
import { ResourceTable } from '../components/resource-table';
import { When } from '../components/when';
import { useCan } from '../layout/permissions';
import { EditAgentDialog } from './edit-agent-dialog';

/** Agents (D30): identities in tenant-auth, metadata in the relay; the secret is shown once. */
export function AgentsTab() {
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<AgentResponse | null>(null);
  const mayWrite = useCan('REGISTRY', 'WRITE');
  const mayDelete = useCan('REGISTRY', 'DELETE');
  const create = useAction(() => registry.createAgent(name), ['agents']);
  const registered = create.data?.id;
  const agents = useQuery({
    queryKey: ['agents'],
    queryFn: registry.agents,
    // D30: the relay learns of an agent from tenant-auth's event, a moment after it is created;
    // until the new one is listed, the list is asked for again.
    refetchInterval: (query) =>
      registered && !query.state.data?.items.some((a) => a.id === registered) ? 1_000 : false,
  });
  const remove = useAction((id: string) => registry.deleteAgent(id), ['agents']);

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
        onDelete={mayDelete ? (a) => remove.mutate(a.id) : undefined}
      />
      {editing ? <EditAgentDialog agent={editing} onClose={() => setEditing(null)} /> : null}
      {mayWrite ? (
        <CreateForm
          legend="Register an agent"
          submitLabel="Register"
          pending={create.isPending}
          error={create.error}
          onSubmit={() => create.mutate(undefined, { onSuccess: () => setName('') })}
        >
          <TextInput
            label="Agent name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
          />
        </CreateForm>
      ) : null}
      {create.data ? (
        <Alert title={`Agent ${create.data.name} registered`} role="status">
          Its client secret, shown this once: <Code>{create.data.clientSecret}</Code>
        </Alert>
      ) : null}
    </Stack>
  );
}
