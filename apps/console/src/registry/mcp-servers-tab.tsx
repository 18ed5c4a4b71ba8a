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

import { membersText, text } from './catalog-text';
import { EditMcpServerDialog } from './edit-mcp-server-dialog';

/** MCP servers (D37): their address checked against the egress rules; virtual ones (D52). */
export function McpServersTab() {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [editing, setEditing] = useState<CatalogEntry | null>(null);
  const mayWrite = useCan('MCP_REGISTRY', 'WRITE');
  const mayDelete = useCan('MCP_REGISTRY', 'DELETE');
  const servers = useQuery({ queryKey: ['mcp-servers'], queryFn: registry.mcpServers });
  const create = useAction(() => registry.createMcpServer({ name, url }), ['mcp-servers']);
  const remove = useAction((id: string) => registry.deleteMcpServer(id), ['mcp-servers']);
  const [virtualName, setVirtualName] = useState('');
  const [memberIds, setMemberIds] = useState<string[]>([]);
  const compose = useAction(
    () =>
      registry.createVirtualMcpServer({
        name: virtualName,
        members: memberIds.map((serverId) => ({ serverId })),
      }),
    ['mcp-servers'],
  );
  const memberChoices = (servers.data?.items ?? [])
    .filter((s) => s.transport !== 'VIRTUAL')
    .map((s) => ({ value: s.id, label: s.name }));

  return (
    <Stack>
      <ErrorAlert error={servers.error ?? remove.error} />
      <ResourceTable
        rows={servers.data?.items}
        empty="No MCP servers yet."
        nameOf={(s) => s.name}
        columns={[
          { label: 'Name', render: (s) => s.name },
          { label: 'Address', render: (s) => text(s.url) || membersText(s.members) },
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
      {mayWrite ? (
        <CreateForm
          legend="Compose a virtual MCP server"
          submitLabel="Compose"
          pending={compose.isPending}
          error={compose.error}
          onSubmit={() =>
            compose.mutate(undefined, {
              onSuccess: () => {
                setVirtualName('');
                setMemberIds([]);
              },
            })
          }
        >
          <TextInput
            label="Virtual server name"
            value={virtualName}
            onChange={(e) => setVirtualName(e.currentTarget.value)}
            required
          />
          <MultiSelect
            label="Member servers"
            description="Each member's tools, resources and prompts appear as {prefix}__{name}."
            data={memberChoices}
            value={memberIds}
            onChange={setMemberIds}
            searchable
            miw={280}
          />
        </CreateForm>
      ) : null}
    </Stack>
  );
}
