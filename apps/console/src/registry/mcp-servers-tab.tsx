import { Stack, TextInput } from '@mantine/core';
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
import { EditMcpServerDialog } from './edit-mcp-server-dialog';

/** MCP servers (D37): their address checked against the egress rules by the relay. */
export function McpServersTab() {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [editing, setEditing] = useState<CatalogEntry | null>(null);
  const mayWrite = useCan('MCP_REGISTRY', 'WRITE');
  const mayDelete = useCan('MCP_REGISTRY', 'DELETE');
  const servers = useQuery({ queryKey: ['mcp-servers'], queryFn: registry.mcpServers });
  const create = useAction(() => registry.createMcpServer({ name, url }), ['mcp-servers']);
  const remove = useAction((id: string) => registry.deleteMcpServer(id), ['mcp-servers']);

  return (
    <Stack>
      <ErrorAlert error={servers.error ?? remove.error} />
      <ResourceTable
        rows={servers.data?.items}
        empty="No MCP servers yet."
        nameOf={(s) => s.name}
        columns={[
          { label: 'Name', render: (s) => s.name },
          { label: 'Address', render: (s) => text(s.url) },
          { label: 'Transport', render: (s) => text(s.transport) },
          { label: 'Credential', render: (s) => (s.credential ? 'set' : 'none') },
          { label: 'Created', render: (s) => <When at={s.createdAt} /> },
        ]}
        onEdit={mayWrite ? setEditing : undefined}
        onDelete={mayDelete ? (s) => remove.mutate(s.id) : undefined}
      />
      {editing ? <EditMcpServerDialog server={editing} onClose={() => setEditing(null)} /> : null}
      {mayWrite ? (
        <CreateForm
          legend="Add an MCP server"
          submitLabel="Add"
          pending={create.isPending}
          error={create.error}
          onSubmit={() =>
            create.mutate(undefined, {
              onSuccess: () => {
                setName('');
                setUrl('');
              },
            })
          }
        >
          <TextInput
            label="Server name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
          />
          <TextInput
            label="Address"
            type="url"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            required
          />
        </CreateForm>
      ) : null}
    </Stack>
  );
}
