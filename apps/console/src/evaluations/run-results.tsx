import { Alert, Badge, List, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';

import { evaluations } from '../api/evaluations-api';
import { SUCCESS_COLOR } from '../components/action-badge';
import { ErrorAlert } from '../components/error-alert';

/** One run's verdicts: per evaluation, per hop, each check with what was expected and found. */
export function RunResults({ packId, runId }: { packId: string; runId: string }) {
  const run = useQuery({
    queryKey: ['evaluation-packs', packId, 'runs', runId],
    queryFn: () => evaluations.run(packId, runId),
    refetchInterval: (query) =>
      ['PENDING', 'RUNNING'].includes(query.state.data?.status ?? 'PENDING') ? 1_000 : false,
  });
  const results = run.data?.results ?? [];

  return (
    <Stack gap="xs">
      <Title order={4}>Run results</Title>
      <ErrorAlert error={run.error} />
      {run.data?.errorMessage ? (
        <Alert color="red" title="The run failed">
          {run.data.errorMessage}
        </Alert>
      ) : null}
      {results.length === 0 ? <Text c="dimmed">{run.data?.status ?? 'Loading…'}</Text> : null}
      {results.map((evaluation) => (
        <Stack key={evaluation.evaluationId} gap={4}>
          <Text fw={600}>
            {evaluation.name}{' '}
            <Badge color={evaluation.status === 'PASSED' ? SUCCESS_COLOR : 'red.9'}>
              {evaluation.status}
            </Badge>
          </Text>
          <List size="sm">
            {evaluation.hops.flatMap((hop) =>
              hop.checks.map((check, i) => (
                <List.Item key={`${hop.hopId}${i}`}>
                  {check.passed ? 'Passed' : 'Failed'}: {check.check} — expected {check.expected},
                  got {check.actual}
                </List.Item>
              )),
            )}
          </List>
        </Stack>
      ))}
    </Stack>
  );
}
