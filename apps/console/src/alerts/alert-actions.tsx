import { Button, Group, Select, Stack, Textarea } from '@mantine/core';
import { useState } from 'react';
import { DISMISS_REASONS, DismissReason } from '@agp/contracts/enums';

import type { AlertResponse } from '../api/contracts/audit';
import { AlertAction, platform } from '../api/platform';
import { useAction } from '../api/use-action';
import { ErrorAlert } from '../components/error-alert';
import { actionsFor } from './lifecycle';

const LABELS: Record<AlertAction, string> = {
  acknowledge: 'Acknowledge',
  resolve: 'Resolve',
  dismiss: 'Dismiss',
  reopen: 'Reopen',
};

/** Every lifecycle operation the alert's status allows (D14), each with an optional note. */
export function AlertActions({ alert }: { alert: AlertResponse }) {
  const [note, setNote] = useState('');
  const [reason, setReason] = useState<DismissReason | null>(null);
  const act = useAction(
    (action: AlertAction) =>
      platform.alertAction(
        alert.id,
        action,
        note,
        action === 'dismiss' ? (reason ?? undefined) : undefined,
      ),
    ['alerts'],
  );
  const offered = actionsFor(alert.status);

  return (
    <Stack gap="xs" maw={560}>
      <Textarea label="Note" value={note} onChange={(e) => setNote(e.currentTarget.value)} />
      {offered.includes('dismiss') ? (
        <Select
          label="Reason to dismiss"
          data={DISMISS_REASONS}
          value={reason}
          onChange={(v) => setReason(v)}
        />
      ) : null}
      <Group>
        {offered.map((action) => (
          <Button
            key={action}
            variant={action === 'acknowledge' ? 'filled' : 'default'}
            disabled={action === 'dismiss' && !reason}
            loading={act.isPending && act.variables === action}
            onClick={() => act.mutate(action, { onSuccess: () => setNote('') })}
          >
            {LABELS[action]}
          </Button>
        ))}
      </Group>
      <ErrorAlert error={act.error} title="The action failed" />
    </Stack>
  );
}
