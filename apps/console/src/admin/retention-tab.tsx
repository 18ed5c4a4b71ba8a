import { Button, Group, NumberInput, Stack, Switch, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

import type { RetentionPolicy } from '../api/contracts/audit';
import { admin } from '../api/admin-api';
import { useAction } from '../api/use-action';
import { ErrorAlert } from '../components/error-alert';
import { When } from '../components/when';
import { useCan } from '../layout/permissions';

type Days = RetentionPolicy['days'];

/** A2–A5: days kept per event family, and whether message content is kept at all. */
export function RetentionTab() {
  const mayWrite = useCan('AUDIT', 'WRITE');
  const policy = useQuery({ queryKey: ['retention'], queryFn: admin.retention });
  const [days, setDays] = useState<Days>();
  const [captureContent, setCaptureContent] = useState(false);
  useEffect(() => {
    if (policy.data) {
      setDays(policy.data.days);
      setCaptureContent(policy.data.captureContent);
    }
  }, [policy.data]);
  const save = useAction(
    () => admin.updateRetention({ days: days!, captureContent }),
    ['retention'],
  );

  return (
    <Stack maw={480}>
      <ErrorAlert error={policy.error} />
      {days
        ? (Object.keys(days) as Array<keyof Days>).map((family) => (
            <NumberInput
              key={family}
              label={`${family} events, days kept`}
              min={1}
              max={3650}
              value={days[family]}
              readOnly={!mayWrite}
              onChange={(value) => setDays({ ...days, [family]: Number(value) })}
            />
          ))
        : null}
      <Switch
        label="Keep message content"
        checked={captureContent}
        disabled={!mayWrite}
        onChange={(e) => setCaptureContent(e.currentTarget.checked)}
      />
      <Text size="sm">
        Last changed: <When at={policy.data?.updatedAt} />
      </Text>
      {mayWrite ? (
        <Group>
          <Button onClick={() => save.mutate()} loading={save.isPending} disabled={!days}>
            Save retention
          </Button>
          {save.isSuccess ? <Text role="status">Saved.</Text> : null}
        </Group>
      ) : null}
      <ErrorAlert error={save.error} />
    </Stack>
  );
}
