import { Badge } from '@mantine/core';

import type { RunResponse } from '../api/contracts/relay';
import { SUCCESS_COLOR } from '../components/action-badge';

/** A run's status, and once finished how many evaluations passed and failed. */
export function RunStatusBadge({ run }: { run: RunResponse }) {
  const failed = run.status === 'FAILED' || run.failed > 0;
  const color = failed ? 'red.9' : run.status === 'COMPLETED' ? SUCCESS_COLOR : 'gray.8';
  const counts = run.status === 'COMPLETED' ? ` · ${run.passed} passed, ${run.failed} failed` : '';
  return <Badge color={color}>{`${run.status}${counts}`}</Badge>;
}
