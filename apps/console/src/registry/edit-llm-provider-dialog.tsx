import { PasswordInput, TagsInput, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import type { CatalogEntry } from '../api/contracts/relay';

import { registry } from '../api/registry-api';
import { useAction } from '../api/use-action';
import { EditDialog } from '../components/edit-dialog';
import { text } from './catalog-text';

/**
 * An LLM provider changed in place (D39). Its API key is write-only (D37): the field starts empty
 * whether a key is set or not, and only a key typed into it is sent, replacing the stored one.
 */
export function EditLlmProviderDialog({
  provider,
  onClose,
}: {
  provider: CatalogEntry;
  onClose: () => void;
}) {
  const [name, setName] = useState(provider.name);
  const [baseUrl, setBaseUrl] = useState(text(provider.baseUrl));
  const [description, setDescription] = useState(text(provider.description));
  const [models, setModels] = useState<string[]>((provider.models as string[] | undefined) ?? []);
  const [apiKey, setApiKey] = useState('');
  const save = useAction(
    () =>
      registry.updateLlmProvider(provider.id, {
        name,
        baseUrl,
        description: description || null,
        // None listed: any model the caller names (null clears the list).
        models: models.length ? models : null,
        ...(apiKey ? { apiKey } : {}),
      }),
    ['llm-providers'],
  );
  return (
    <EditDialog
      title={`Edit LLM provider ${provider.name}`}
      pending={save.isPending}
      error={save.error}
      onSave={() => save.mutate(undefined, { onSuccess: onClose })}
      onClose={onClose}
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
        value={baseUrl}
        onChange={(e) => setBaseUrl(e.currentTarget.value)}
        required
      />
      <Textarea
        label="Description"
        value={description}
        onChange={(e) => setDescription(e.currentTarget.value)}
        autosize
      />
      <TagsInput
        label="Models"
        description="Empty: any model"
        value={models}
        onChange={setModels}
      />
      <PasswordInput
        label="New API key"
        description={
          provider.apiKey
            ? 'The key set is never shown; leave empty to keep it'
            : 'No key is set; leave empty to send none'
        }
        value={apiKey}
        onChange={(e) => setApiKey(e.currentTarget.value)}
        autoComplete="off"
      />
    </EditDialog>
  );
}
