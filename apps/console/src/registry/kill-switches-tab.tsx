import { Badge, Code, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import type { KillSwitchScope } from '../api/contracts/relay';
import { registry } from '../api/registry-api';
import { useAction } from '../api/use-action';
import { currentTenantId } from '../auth/session';
import { CreateForm } from '../components/create-form';
import { refusalText } from '../components/refusal-text';
import { ErrorAlert } from '../components/error-alert';
import { ResourceTable } from '../components/resource-table';
import { When } from '../components/when';
import { useEndpoints } from './use-endpoint-names';

type OfferedScope = Exclude<KillSwitchScope, 'CHANNEL'>;
const SCOPES: OfferedScope[] = ['AGENT', 'MCP_SERVER', 'LLM_GATEWAY', 'TENANT'];

/** D35: switches that refuse every hop touching their target until released (TENANT:ADMIN). */
export function KillSwitchesTab() {
  const [scope, setScope] = useState<OfferedScope>('AGENT');
  const [targetId, setTargetId] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const endpoints = useEndpoints();
  const switches = useQuery({ queryKey: ['kill-switches'], queryFn: registry.killSwitches });
  const targets = {
    AGENT: endpoints.agents,
    MCP_SERVER: endpoints.mcpServers,
    LLM_GATEWAY: endpoints.llmGateways,
    TENANT: [{ value: currentTenantId() ?? '', label: 'This whole tenant' }],
  }[scope];
  const engage = useAction(
    () => registry.engageKillSwitch({ scope, targetId: targetId ?? '', reason }),
    ['kill-switches'],
  );
  const release = useAction((id: string) => registry.releaseKillSwitch(id), ['kill-switches']);
  const targetName = (id: string) =>
    id === currentTenantId() ? 'this tenant' : endpoints.nameOf(id);

  return (
    <Stack>
      <ErrorAlert error={switches.error ?? release.error} />
      <Text size="sm" c="dimmed">
        While a switch is engaged, every hop touching its target is refused: MCP and A2A callers get
        the JSON-RPC error <Code>{refusalText('killSwitch')}</Code>, LLM callers an HTTP 403 with
        the same name.
      </Text>
      <ResourceTable
        rows={switches.data?.items}
        empty="No kill switch has been engaged."
        nameOf={(k) => `${k.scope} ${targetName(k.targetId)}`}
        deleteLabel="Release"
        columns={[
          {
            label: 'Status',
            render: (k) => (
              <Badge color={k.status === 'ENGAGED' ? 'red.9' : 'gray.8'}>{k.status}</Badge>
            ),
          },
          { label: 'Scope', render: (k) => k.scope },
          { label: 'Target', render: (k) => targetName(k.targetId) },
          { label: 'Reason', render: (k) => k.reason },
          { label: 'Engaged', render: (k) => <When at={k.createdAt} /> },
          { label: 'Released', render: (k) => <When at={k.releasedAt} /> },
        ]}
        onDelete={(k) => release.mutate(k.id)}
        canDelete={(k) => k.status === 'ENGAGED'}
      />
      <CreateForm
        legend="Engage a kill switch"
        submitLabel="Engage"
        pending={engage.isPending}
        error={engage.error}
        onSubmit={() => engage.mutate(undefined, { onSuccess: () => setReason('') })}
      >
        <Select
          label="Scope"
          data={SCOPES}
          value={scope}
          onChange={(v) => {
            setScope(v ?? 'AGENT');
            setTargetId(null);
          }}
          allowDeselect={false}
        />
        <Select label="Target" data={targets} value={targetId} onChange={setTargetId} />
        <TextInput
          label="Reason"
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          required
        />
      </CreateForm>
    </Stack>
  );
}
