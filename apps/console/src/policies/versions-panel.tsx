import { Checkbox, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import { platform } from '../api/platform';
import { ErrorAlert } from '../components/error-alert';
import { VersionDiff } from './version-diff';

/** A group's versions; tick two to see what changed between them. */
export function VersionsPanel({ groupId }: { groupId: string }) {
  const versions = useQuery({
    queryKey: ['policy-versions', groupId],
    queryFn: () => platform.policyVersions(groupId),
  });
  const [picked, setPicked] = useState<string[]>([]);
  const items = versions.data?.items ?? [];
  const chosen = items.filter((v) => picked.includes(v.id));
  const toggle = (id: string) =>
    setPicked((current) =>
      current.includes(id) ? current.filter((x) => x !== id) : [...current.slice(-1), id],
    );

  return (
    <Stack>
      <ErrorAlert error={versions.error} />
      {items.length ? (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Compare</Table.Th>
              <Table.Th>Version</Table.Th>
              <Table.Th>Valid from</Table.Th>
              <Table.Th>Bindings</Table.Th>
              <Table.Th>Description</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((v) => (
              <Table.Tr key={v.id}>
                <Table.Td>
                  <Checkbox
                    aria-label={`Compare version ${v.version}`}
                    checked={picked.includes(v.id)}
                    onChange={() => toggle(v.id)}
                  />
                </Table.Td>
                <Table.Td>
                  {v.version}
                  {v.retiredAt ? ' (retired)' : ''}
                </Table.Td>
                <Table.Td>{new Date(v.validFrom).toLocaleString()}</Table.Td>
                <Table.Td>{v.bindingCount}</Table.Td>
                <Table.Td>{v.description ?? ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text c="dimmed">No versions yet.</Text>
      )}
      {chosen.length === 2 ? (
        <VersionDiff
          before={[...chosen].sort((a, b) => a.createdAt.localeCompare(b.createdAt))[0].regoSource}
          after={[...chosen].sort((a, b) => a.createdAt.localeCompare(b.createdAt))[1].regoSource}
        />
      ) : (
        <Text size="sm" c="dimmed">
          Tick two versions to compare them.
        </Text>
      )}
    </Stack>
  );
}
