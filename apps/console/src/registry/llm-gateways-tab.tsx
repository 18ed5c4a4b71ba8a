import { MultiSelect, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import type { CatalogEntry } from '../api/contracts/relay';
import { registry } from '../api/registry-api';
import { useAction } from '../api/use-action';
import { CreateForm } from '../components/create-form';
import { ErrorAlert } from '../components/error-alert';
import { ResourceTable } from '../components/resource-table';
import { When } from '../components/when';
import { useCan } from '../layout/permissions';
import { EditLlmGatewayDialog } from './edit-llm-gateway-dialog';

/** LLM gateways (D39): a name in front of providers it fails over through, in order. */
export function LlmGatewaysTab() {
  const [name, setName] = useState('');
  const [providers, setProviders] = useState<string[]>([]);
  const [editing, setEditing] = useState<CatalogEntry | null>(null);
  const mayWrite = useCan('LLM_GATEWAY', 'WRITE');
  const mayDelete = useCan('LLM_GATEWAY', 'DELETE');
  const gateways = useQuery({ queryKey: ['llm-gateways'], queryFn: registry.llmGateways });
  const known = useQuery({ queryKey: ['llm-providers'], queryFn: registry.llmProviders });
  const nameOf = (id: string) => known.data?.items.find((p) => p.id === id)?.name ?? id;
  const providerOptions = (known.data?.items ?? []).map((p) => ({ value: p.id, label: p.name }));
  const create = useAction(() => registry.createLlmGateway({ name, providers }), ['llm-gateways']);
  const remove = useAction((id: string) => registry.deleteLlmGateway(id), ['llm-gateways']);

  return (
    <Stack>
      <ErrorAlert error={gateways.error ?? remove.error} />
      <ResourceTable
        rows={gateways.data?.items}
        empty="No LLM gateways yet."
        nameOf={(g) => g.name}
        columns={[
          { label: 'Name', render: (g) => g.name },
          {
            label: 'Providers, in failover order',
            render: (g) => ((g.providers as string[] | undefined) ?? []).map(nameOf).join(' → '),
          },
          { label: 'Created', render: (g) => <When at={g.createdAt} /> },
        ]}
        onEdit={mayWrite ? setEditing : undefined}
        onDelete={mayDelete ? (g) => remove.mutate(g.id) : undefined}
      />
      {editing ? (
        <EditLlmGatewayDialog
          gateway={editing}
          providerOptions={providerOptions}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {mayWrite ? (
        <CreateForm
          legend="Add an LLM gateway"
          submitLabel="Add"
          pending={create.isPending}
          error={create.error}
          onSubmit={() => create.mutate(undefined, { onSuccess: () => setName('') })}
        >
          <TextInput
            label="Gateway name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
          />
          <MultiSelect
            label="Providers"
            data={providerOptions}
            value={providers}
            onChange={setProviders}
            miw={240}
          />
        </CreateForm>
      ) : null}
    </Stack>
  );
}
