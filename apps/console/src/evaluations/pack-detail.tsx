import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import type { EvaluationPackResponse } from '../api/contracts/relay';
import { evaluations } from '../api/evaluations-api';
import { useAction } from '../api/use-action';
import { ErrorAlert } from '../components/error-alert';
import { ResourceTable } from '../components/resource-table';
import { When } from '../components/when';
import { useCan } from '../layout/permissions';
import { EvaluationForm } from './evaluation-form';
import { PackScheduleForm } from './pack-schedule-form';
import { RunResults } from './run-results';
import { RunStatusBadge } from './run-status-badge';

const FINISHED = ['COMPLETED', 'FAILED', 'CANCELED'];

/** One pack: its evaluations, its runs (polled while one is under way) and a new run. */
export function PackDetail({ pack }: { pack: EvaluationPackResponse }) {
  const [runId, setRunId] = useState<string>();
  const mayRun = useCan('TENANT', 'WRITE');
  const runs = useQuery({
    queryKey: ['evaluation-packs', pack.id, 'runs'],
    queryFn: () => evaluations.runs(pack.id),
    refetchInterval: (query) =>
      query.state.data?.items.some((r) => !FINISHED.includes(r.status)) ? 1_000 : false,
  });
  const start = useAction(() => evaluations.startRun(pack.id), ['evaluation-packs']);

  return (
    <Stack>
      <Title order={3}>{pack.name}</Title>
      {pack.description ? <Text size="sm">{pack.description}</Text> : null}
      <ResourceTable
        rows={pack.evaluations}
        empty="This pack has no evaluations yet."
        nameOf={(e) => e.name}
        columns={[
          { label: 'Evaluation', render: (e) => e.name },
          { label: 'From', render: (e) => e.source.name ?? e.source.id },
          { label: 'To', render: (e) => e.target.name ?? e.target.id },
          { label: 'Hops', render: (e) => e.hops.length },
          { label: 'Enabled', render: (e) => (e.enabled ? 'yes' : 'no') },
        ]}
      />
      {mayRun ? <EvaluationForm packId={pack.id} /> : null}
      {mayRun ? <PackScheduleForm key={pack.id} pack={pack} /> : null}
      <Group>
        <Title order={4}>Runs</Title>
        {mayRun ? (
          <Button
            size="xs"
            loading={start.isPending}
            onClick={() => start.mutate(undefined, { onSuccess: (run) => setRunId(run.runId) })}
          >
            Run pack
          </Button>
        ) : null}
      </Group>
      <ErrorAlert error={runs.error ?? start.error} />
      <ResourceTable
        rows={runs.data?.items.map((r) => ({ ...r, id: r.runId }))}
        empty="Not run yet."
        nameOf={(r) => r.runId}
        columns={[
          {
            label: 'Started',
            render: (r) => (
              <Button variant="subtle" size="compact-sm" onClick={() => setRunId(r.runId)}>
                <When at={r.createdAt} />
              </Button>
            ),
          },
          { label: 'Status', render: (r) => <RunStatusBadge run={r} /> },
          { label: 'By', render: (r) => r.triggeredBy?.name ?? r.triggerSource },
          { label: 'Mode', render: (r) => r.executionMode },
          {
            label: 'Took',
            render: (r) => (r.durationMs === undefined ? '—' : `${r.durationMs} ms`),
          },
        ]}
      />
      {runId ? <RunResults packId={pack.id} runId={runId} /> : null}
    </Stack>
  );
}
