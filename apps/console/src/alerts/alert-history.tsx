import { Text, Timeline } from '@mantine/core';

import type { AlertResponse } from '../api/contracts/audit';
import { When } from '../components/when';

/** The alert's lifecycle events, oldest first: who did what, when, and their note. */
export function AlertHistory({ history }: { history: AlertResponse['history'] }) {
  if (!history.length) {
    return <Text c="dimmed">No one has acted on this alert yet.</Text>;
  }
  return (
    <Timeline active={history.length - 1} bulletSize={14} lineWidth={2}>
      {history.map((entry) => (
        <Timeline.Item key={`${entry.at}${entry.action}`} title={entry.action}>
          <Text size="sm">
            {entry.actorLabel}, <When at={entry.at} />
          </Text>
          {entry.note ? <Text size="sm">“{entry.note}”</Text> : null}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
