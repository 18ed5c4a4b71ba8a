import { Badge, Button, Group, Select, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import type { PolicyBindingResponse } from '../api/contracts/relay';
import { platform } from '../api/platform';
import { SUCCESS_COLOR, WARNING_COLOR } from '../components/action-badge';
import { ErrorAlert } from '../components/error-alert';
import { useCan } from '../layout/permissions';
import { ReplayPreview } from './replay-preview';

/** The group's bindings (D23), each movable to another valid version (operations 4 and 7). */
export function BindingsPanel({ groupId }: { groupId: string }) {
  const bindings = useQuery({
    queryKey: ['policy-bindings', groupId],
    queryFn: () => platform.policyBindings(groupId),
  });
  const items = bindings.data?.items ?? [];
  return (
    <Stack>
      <ErrorAlert error={bindings.error} />
      {items.length ? (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Level</Table.Th>
              <Table.Th>Applies to</Table.Th>
              <Table.Th>Priority</Table.Th>
              <Table.Th>Version</Table.Th>
              <Table.Th>Move to</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((binding) => (
              <BindingRow key={binding.bindingId} binding={binding} />
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text c="dimmed">This group is not bound anywhere.</Text>
      )}
    </Stack>
  );
}

function BindingRow({ binding }: { binding: PolicyBindingResponse }) {
  const mayWrite = useCan('TENANT', 'WRITE');
  const client = useQueryClient();
  const [target, setTarget] = useState<string | null>(null);
  const available = useQuery({
    queryKey: ['available-versions', binding.bindingId, binding.groupVersion],
    queryFn: () => platform.availableVersions(binding.bindingId),
    enabled: mayWrite,
  });
  const upgrade = useMutation({
    mutationFn: () => platform.upgradeBinding(binding.bindingId, target ?? undefined),
    onSuccess: async () => {
      setTarget(null);
      await client.invalidateQueries({ queryKey: ['policy-bindings'] });
      await client.invalidateQueries({ queryKey: ['policy-versions'] });
    },
  });
  const subject = binding.agent ?? binding.sourceAgent ?? binding.channel;
  return (
    <Table.Tr>
      <Table.Td>{binding.bindingLevel}</Table.Td>
      <Table.Td>
        {subject?.name ?? 'the whole tenant'}
        {binding.sinkAgent ? ` → ${binding.sinkAgent.name}` : ''}
      </Table.Td>
      <Table.Td>{binding.priority}</Table.Td>
      <Table.Td>
        <Group gap="xs">
          {binding.groupVersion}
          {binding.isLatestGroupVersion ? (
            <Badge color={SUCCESS_COLOR}>latest</Badge>
          ) : (
            <Badge color={WARNING_COLOR}>newer exists</Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td>
        {mayWrite ? (
          <Group gap="xs" align="end">
            <Select
              aria-label={`Version for binding ${binding.bindingId}`}
              placeholder="latest valid"
              data={(available.data ?? []).map((v) => v.version)}
              value={target}
              onChange={setTarget}
              clearable
              w={140}
            />
            <Button size="xs" onClick={() => upgrade.mutate()} loading={upgrade.isPending}>
              Move
            </Button>
          </Group>
        ) : null}
        {target ? (
          <ReplayPreview groupId={binding.groupId} version={target} bindingId={binding.bindingId} />
        ) : null}
        <ErrorAlert error={upgrade.error} />
      </Table.Td>
    </Table.Tr>
  );
}
