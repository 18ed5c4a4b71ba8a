import { MultiSelect, TextInput } from '@mantine/core';
import { useState } from 'react';

import type { CatalogEntry } from '../api/contracts/relay';
import { registry } from '../api/registry-api';
import { useAction } from '../api/use-action';
import { EditDialog } from '../components/edit-dialog';

/** A gateway renamed or given other providers (D39: the order chosen is the failover order). */
export function EditLlmGatewayDialog({
  gateway,
  providerOptions,
  onClose,
}: {
  gateway: CatalogEntry;
  providerOptions: Array<{ value: string; label: string }>;
  onClose: () => void;
}) {
  const [name, setName] = useState(gateway.name);
  const [providers, setProviders] = useState<string[]>(
    (gateway.providers as string[] | undefined) ?? [],
  );
  const save = useAction(
    () => registry.updateLlmGateway(gateway.id, { name, providers }),
    ['llm-gateways'],
  );
  return (
    <EditDialog
      title={`Edit LLM gateway ${gateway.name}`}
      pending={save.isPending}
      error={save.error}
      onSave={() => save.mutate(undefined, { onSuccess: onClose })}
      onClose={onClose}
    >
      <TextInput
        label="Gateway name"
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        required
      />
      <MultiSelect
        label="Providers, in failover order"
        data={providerOptions}
        value={providers}
        onChange={setProviders}
      />
    </EditDialog>
  );
}
