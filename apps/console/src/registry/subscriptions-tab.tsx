import { Select, Stack, TagsInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { SubscriptionKind } from '@agp/contracts';

import type { Subscription } from '../api/contracts/relay';
import { registry } from '../api/registry-api';
import { useAction } from '../api/use-action';
import { CreateForm } from '../components/create-form';
import { ErrorAlert } from '../components/error-alert';
import { ResourceTable } from '../components/resource-table';
import { useCan } from '../layout/permissions';
import { EditGrantDialog } from './edit-grant-dialog';
import { EndpointOption, useEndpoints } from './use-endpoint-names';

type OfferedKind = Extract<
  SubscriptionKind,
  'AGENT_TO_MCP_SERVER' | 'AGENT_TO_AGENT' | 'AGENT_TO_LLM_GATEWAY'
>;
const KINDS: OfferedKind[] = ['AGENT_TO_MCP_SERVER', 'AGENT_TO_AGENT', 'AGENT_TO_LLM_GATEWAY'];

/** D32: who may talk to whom, and for an MCP server the tools granted (none listed: every tool). */
export function SubscriptionsTab() {
  const [kind, setKind] = useState<OfferedKind>('AGENT_TO_MCP_SERVER');
  const [sourceId, setSourceId] = useState<string | null>(null);
  const [targetId, setTargetId] = useState<string | null>(null);
  const [tools, setTools] = useState<string[]>([]);
  const [editing, setEditing] = useState<Subscription | null>(null);
  const mayWrite = useCan('REGISTRY', 'WRITE');
  const mayDelete = useCan('REGISTRY', 'DELETE');
  const endpoints = useEndpoints();
  const subscriptions = useQuery({ queryKey: ['subscriptions'], queryFn: registry.subscriptions });
  const targets: Record<OfferedKind, EndpointOption[]> = {
    AGENT_TO_MCP_SERVER: endpoints.mcpServers,
    AGENT_TO_AGENT: endpoints.agents,
    AGENT_TO_LLM_GATEWAY: endpoints.llmGateways,
  };
  const create = useAction(
    () =>
      registry.createSubscription({
        kind,
        sourceId: sourceId ?? '',
        targetId: targetId ?? '',
        ...(kind === 'AGENT_TO_MCP_SERVER' ? { tools: tools.length ? tools : null } : {}),
      }),
    ['subscriptions'],
  );
  const remove = useAction((id: string) => registry.deleteSubscription(id), ['subscriptions']);
  const describe = (s: Subscription) =>
    `${endpoints.nameOf(s.sourceId)} to ${endpoints.nameOf(s.targetId)}`;

  return (
    <Stack>
      <ErrorAlert error={subscriptions.error ?? remove.error} />
      <ResourceTable
        rows={subscriptions.data?.items}
        empty="No subscriptions yet."
        nameOf={describe}
        columns={[
          { label: 'Kind', render: (s) => s.kind },
          { label: 'From', render: (s) => endpoints.nameOf(s.sourceId) },
          { label: 'To', render: (s) => endpoints.nameOf(s.targetId) },
          {
            label: 'Tools granted',
            render: (s) =>
              s.kind !== 'AGENT_TO_MCP_SERVER' ? '—' : s.tools ? s.tools.join(', ') : 'every tool',
          },
        ]}
        onEdit={mayWrite ? setEditing : undefined}
        canEdit={(s) => s.kind === 'AGENT_TO_MCP_SERVER'}
        onDelete={mayDelete ? (s) => remove.mutate(s.id) : undefined}
      />
      {editing ? (
        <EditGrantDialog
          subscription={editing}
          title={describe(editing)}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {mayWrite ? (
        <CreateForm
          legend="Subscribe an agent"
          submitLabel="Subscribe"
          pending={create.isPending}
          error={create.error}
          onSubmit={() => create.mutate()}
        >
          <Select
            label="Kind"
            data={KINDS}
            value={kind}
            onChange={(v) => {
              setKind(v ?? 'AGENT_TO_MCP_SERVER');
              setTargetId(null);
            }}
            allowDeselect={false}
          />
          <Select label="Agent" data={endpoints.agents} value={sourceId} onChange={setSourceId} />
          <Select label="Target" data={targets[kind]} value={targetId} onChange={setTargetId} />
          {kind === 'AGENT_TO_MCP_SERVER' ? (
            <TagsInput
              label="Tools granted"
              description="None: every tool"
              value={tools}
              onChange={setTools}
            />
          ) : null}
        </CreateForm>
      ) : null}
    </Stack>
  );
}
