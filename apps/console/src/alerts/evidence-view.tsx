import { Stack, Table, Title } from '@mantine/core';
import type { MonitorEvidence } from '@agp/contracts';

import { evidenceFacts } from './evidence-facts';

/** An alert's evidence, field by field for its kind; a spike's top policies as their own table. */
export function EvidenceView({ evidence }: { evidence: MonitorEvidence }) {
  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        Evidence ({evidence.kind.replace(/_/g, ' ').toLowerCase()})
      </Title>
      <Table variant="vertical" layout="fixed" withTableBorder>
        <Table.Tbody>
          {evidenceFacts(evidence).map((fact) => (
            <Table.Tr key={fact.label}>
              <Table.Th w={220}>{fact.label}</Table.Th>
              <Table.Td>{fact.value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {evidence.kind === 'TENANT_ACTION_SPIKE' && evidence.topContributors.length ? (
        <Table withTableBorder>
          <Table.Caption>Policies that contributed most</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Policy</Table.Th>
              <Table.Th>Count</Table.Th>
              <Table.Th>Share</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {evidence.topContributors.map((c) => (
              <Table.Tr key={c.policyId}>
                <Table.Td>{c.policyId}</Table.Td>
                <Table.Td>{c.count}</Table.Td>
                <Table.Td>{c.percentage.toFixed(1)} %</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </Stack>
  );
}
