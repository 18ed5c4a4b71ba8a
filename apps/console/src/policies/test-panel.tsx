import { Button, Group, JsonInput, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import { platform } from '../api/platform';
import { ErrorAlert } from '../components/error-alert';
import { DecisionView } from './decision-view';

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
const EVERYTHING_BOUND = 'bound';

/**
 * A test run: one hop (POLICY.md's input) through the decision service, either every policy bound
 * for it (D22, D23) or one version of this group alone (R20); no traffic, nothing stored.
 */
export function TestPanel({ groupId }: { groupId: string }) {
  const [input, setInput] = useState(SAMPLE);
  const [target, setTarget] = useState<string>(EVERYTHING_BOUND);
  const versions = useQuery({
    queryKey: ['policy-versions', groupId],
    queryFn: () => platform.policyVersions(groupId),
  });
  const run = useMutation({
    mutationFn: () => {
      const hop = JSON.parse(input) as unknown;
      return target === EVERYTHING_BOUND
        ? platform.decide(hop)
        : platform.testVersion(groupId, target, hop);
    },
  });

  return (
    <Stack>
      <Select
        label="Policies to test"
        data={[
          { value: EVERYTHING_BOUND, label: 'Everything bound for this hop' },
          ...(versions.data?.items ?? []).map((v) => ({
            value: v.version,
            label: `Version ${v.version} alone`,
          })),
        ]}
        value={target}
        onChange={(v) => setTarget(v ?? EVERYTHING_BOUND)}
        allowDeselect={false}
        maw={360}
      />
      <JsonInput
        label="Hop"
        value={input}
        onChange={setInput}
        autosize
        minRows={10}
        validationError="Not valid JSON"
      />
      <Group>
        <Button onClick={() => run.mutate()} loading={run.isPending}>
          Run test
        </Button>
      </Group>
      <ErrorAlert error={run.error} />
      {run.data ? <DecisionView decision={run.data} /> : null}
      {!run.data && !run.error ? (
        <Text size="sm">Shows what the relay would decide, and the message after masking.</Text>
      ) : null}
    </Stack>
  );
}
