import { Badge, Button, Code, Group, JsonInput, List, Stack, Table, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';

import { platform } from '../api/platform';
import { SUCCESS_COLOR } from '../components/action-badge';
import { ErrorAlert } from '../components/error-alert';

const SAMPLE = JSON.stringify(
  {
    protocol: 'MCP',
    direction: 'REQUEST',
    source: { type: 'AGENT', id: '00000000-0000-4000-8000-000000000001', name: 'test-agent' },
    sink: { type: 'MCP_SERVER', id: '00000000-0000-4000-8000-000000000002', name: 'test-server' },
    method: 'tools/call',
    tool: { name: 'send_email' },
    message: { json: { name: 'send_email', arguments: { body: 'hello' } } },
  },
  null,
  2,
);

/**
 * A test run: one hop (POLICY.md's input) through the decision service, which evaluates every
 * policy bound for it (D22, D23) without any traffic.
 */
export function TestPanel() {
  const [input, setInput] = useState(SAMPLE);
  const run = useMutation({ mutationFn: () => platform.decide(JSON.parse(input) as unknown) });
  const decision = run.data;

  return (
    <Stack>
      <Text size="sm">
        Evaluates the policies bound for this hop, as the relay would, and shows what it decided.
      </Text>
      <JsonInput
        label="Hop"
        value={input}
        onChange={setInput}
        autosize
        minRows={10}
        validationError="Not valid JSON"
        formatOnBlur
      />
      <Group>
        <Button onClick={() => run.mutate()} loading={run.isPending}>
          Run test
        </Button>
      </Group>
      <ErrorAlert error={run.error} />
      {decision ? (
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
          {decision.bindings.length ? (
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Binding</Table.Th>
                  <Table.Th>Result</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {decision.bindings.map((b, i) => (
                  <Table.Tr key={i}>
                    <Table.Td>
                      <Code>{JSON.stringify(b)}</Code>
                    </Table.Td>
                    <Table.Td />
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : (
            <Text size="sm" c="dimmed">
              No policy is bound for this hop.
            </Text>
          )}
          <Text fw={600}>The message after masking</Text>
          <Code block>{JSON.stringify(decision.maskedMessage.json, null, 2)}</Code>
        </Stack>
      ) : null}
    </Stack>
  );
}
