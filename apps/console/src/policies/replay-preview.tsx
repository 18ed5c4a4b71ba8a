import { Alert, Button, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';

import { platform } from '../api/platform';
import { ErrorAlert } from '../components/error-alert';

const DAY_MS = 86_400_000;
const FINISHED = ['COMPLETED', 'FAILED', 'CANCELLED'];

/**
 * D49 (governance.md G10): before a binding moves to `version`, what that version would have made
 * of the last day's recorded hops where the binding is, counted by action change.
 */
export function ReplayPreview({
  groupId,
  version,
  bindingId,
}: {
  groupId: string;
  version: string;
  bindingId: string;
}) {
  const start = useMutation({
    mutationFn: () => {
      const to = new Date();
      return platform.startReplay(groupId, version, {
        from: new Date(to.getTime() - DAY_MS).toISOString(),
        to: to.toISOString(),
        bindingId,
      });
    },
  });
  const replayId = start.data?.replayId;
  const replay = useQuery({
    queryKey: ['replay', groupId, version, replayId],
    queryFn: () => platform.replay(groupId, version, replayId!),
    enabled: replayId !== undefined,
    refetchInterval: (query) => (FINISHED.includes(query.state.data?.status ?? '') ? false : 1_000),
  });
  const shown = replay.data ?? start.data;
  return (
    <Stack gap="xs">
      <Button size="xs" variant="light" onClick={() => start.mutate()} loading={start.isPending}>
        Preview on the last day
      </Button>
      <ErrorAlert error={start.error ?? replay.error} />
      {shown ? (
        <Stack gap={4}>
          <Text size="xs">
            {shown.status}: {shown.judged} hops re-judged, {shown.unreplayable} without content
          </Text>
          {shown.errorMessage ? <Alert color="red">{shown.errorMessage}</Alert> : null}
          {shown.result.counts.length ? (
            <Table>
              <Table.Tbody>
                {shown.result.counts.map((c) => (
                  <Table.Tr key={`${c.enforcedAction}-${c.shadowAction}`}>
                    <Table.Td>
                      {c.enforcedAction} → {c.shadowAction}
                    </Table.Td>
                    <Table.Td>{c.count}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : null}
        </Stack>
      ) : null}
    </Stack>
  );
}
