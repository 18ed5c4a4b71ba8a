import { PasswordInput, Stack, TagsInput, TextInput } from '@mantine/core';
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
import { text } from './catalog-text';
import { EditLlmProviderDialog } from './edit-llm-provider-dialog';

/** A provider's models as the table shows them (none listed: it serves any model named). */
const modelsOf = (provider: CatalogEntry): string => {
  const models = (provider.models as string[] | undefined) ?? [];
  return models.length ? models.join(', ') : 'any';
};

/**
 * LLM providers (D39): OpenAI-compatible endpoints the gateways fail over through. The base URL
 * is checked against the egress rules by the relay (D37); the API key is write-only: the relay
 * answers only whether one is set, so it is never shown, only replaced.
 */
export function LlmProvidersTab() {
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [models, setModels] = useState<string[]>([]);
  const [editing, setEditing] = useState<CatalogEntry | null>(null);
  const mayWrite = useCan('LLM_GATEWAY', 'WRITE');
  const mayDelete = useCan('LLM_GATEWAY', 'DELETE');
  const providers = useQuery({ queryKey: ['llm-providers'], queryFn: registry.llmProviders });
  const create = useAction(
    () =>
      registry.createLlmProvider({
        name,
        baseUrl,
        ...(apiKey ? { apiKey } : {}),
        ...(models.length ? { models } : {}),
      }),
    ['llm-providers'],
  );
  const remove = useAction((id: string) => registry.deleteLlmProvider(id), ['llm-providers']);

  return (
    <Stack>
      <ErrorAlert error={providers.error ?? remove.error} />
      <ResourceTable
        rows={providers.data?.items}
        empty="No LLM providers yet."
        nameOf={(p) => p.name}
        columns={[
          { label: 'Name', render: (p) => p.name },
          { label: 'Base URL', render: (p) => text(p.baseUrl) },
          { label: 'Models', render: modelsOf },
          { label: 'API key', render: (p) => (p.apiKey ? 'set' : 'none') },
          { label: 'Created', render: (p) => <When at={p.createdAt} /> },
        ]}
        onEdit={mayWrite ? setEditing : undefined}
        onDelete={mayDelete ? (p) => remove.mutate(p.id) : undefined}
      />
      {editing ? (
        <EditLlmProviderDialog provider={editing} onClose={() => setEditing(null)} />
      ) : null}
      {mayWrite ? (
        <CreateForm
          legend="Add an LLM provider"
          submitLabel="Add"
          pending={create.isPending}
          error={create.error}
          onSubmit={() =>
            create.mutate(undefined, {
              onSuccess: () => {
                setName('');
                setBaseUrl('');
                setApiKey('');
                setModels([]);
              },
            })
          }
        >
          <TextInput
            label="Provider name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
          />
          <TextInput
            label="Base URL"
            type="url"
            placeholder="https://api.openai.com/v1"
            value={baseUrl}
            onChange={(e) => setBaseUrl(e.currentTarget.value)}
            required
          />
          <PasswordInput
            label="API key"
            value={apiKey}
            onChange={(e) => setApiKey(e.currentTarget.value)}
            autoComplete="off"
            miw={200}
          />
          <TagsInput
            label="Models"
            description="Empty: any model"
            value={models}
            onChange={setModels}
            miw={240}
          />
        </CreateForm>
      ) : null}
    </Stack>
  );
}
