import { TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';

import type { CatalogEntry } from '../api/contracts/relay';
import { registry } from '../api/registry-api';
import { useAction } from '../api/use-action';
import { EditDialog } from '../components/edit-dialog';
import { text } from './catalog-text';

/** An MCP server's name, address and description changed in place (D37: the relay checks the URL). */
export function EditMcpServerDialog({
  server,
  onClose,
}: {
  server: CatalogEntry;
  onClose: () => void;
}) {
  const [name, setName] = useState(server.name);
  const [url, setUrl] = useState(text(server.url));
  const [description, setDescription] = useState(text(server.description));
  // D52: a virtual server has no URL of its own.
  const isVirtual = server.transport === 'VIRTUAL';
  const save = useAction(
    () =>
      registry.updateMcpServer(server.id, {
        name,
        description,
        ...(isVirtual ? {} : { url }),
      }),
    ['mcp-servers'],
  );
  return (
    <EditDialog
      title={`Edit MCP server ${server.name}`}
      pending={save.isPending}
      error={save.error}
      onSave={() => save.mutate(undefined, { onSuccess: onClose })}
      onClose={onClose}
    >
      <TextInput
        label="Server name"
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        required
      />
      {isVirtual ? null : (
        <TextInput
          label="URL"
          type="url"
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          required
        />
      )}
      <Textarea
        label="Description"
        value={description}
        onChange={(e) => setDescription(e.currentTarget.value)}
        autosize
      />
    </EditDialog>
  );
}
