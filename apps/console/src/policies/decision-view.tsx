import { Badge, Code, Group, List, Stack, Text } from '@mantine/core';

import type { HopDecision } from '../api/contracts/relay';
import { SUCCESS_COLOR, SeverityBadge } from '../components/action-badge';
import { ResourceTable } from '../components/resource-table';

/** A decision (D22): the combined action and reasons, each policy's own result, the masked message. */
export function DecisionView({ decision }: { decision: HopDecision }) {
  return (
    <Stack role="status">
      <Group>
        <Text fw={600}>Decision</Text>
        <Badge color={decision.isBlocked ? 'red.9' : SUCCESS_COLOR}>{decision.action}</Badge>
      </Group>
      {decision.reasons.length ? (
        <List size="sm">
          {decision.reasons.map((r) => (
            <List.Item key={r}>{r}</List.Item>
          ))}
        </List>
      ) : null}
      <ResourceTable
        rows={decision.bindings.map((b) => ({ ...b, id: b.bindingId }))}
        empty="No policy is bound for this hop."
        nameOf={(b) => b.groupName}
        columns={[
          { label: 'Policy group', render: (b) => b.groupName },
          { label: 'Version', render: (b) => b.groupVersion },
          { label: 'Bound at', render: (b) => b.bindingLevel },
          { label: 'Action', render: (b) => <SeverityBadge value={b.action} /> },
          { label: 'Reasons', render: (b) => b.error ?? b.reasons.join('; ') },
        ]}
      />
      <Text fw={600}>The message after masking</Text>
      <Code block>{JSON.stringify(decision.maskedMessage.json, null, 2)}</Code>
    </Stack>
  );
}
