import { Checkbox, Text, TextInput } from '@mantine/core';
import { useState } from 'react';

import type { EvaluationPackResponse } from '../api/contracts/relay';
import { evaluations } from '../api/evaluations-api';
import { useAction } from '../api/use-action';
import { CreateForm } from '../components/create-form';
import { When } from '../components/when';

/** governance.md G13–G14: SCHEDULE runs on a cron schedule (UTC), and an alert when one fails. */
export function PackScheduleForm({ pack }: { pack: EvaluationPackResponse }) {
  const [schedule, setSchedule] = useState(pack.schedule ?? '');
  const [alertOnFailure, setAlertOnFailure] = useState(pack.alertOnFailure);
  const save = useAction(
    () => evaluations.updatePack(pack.id, { schedule: schedule.trim(), alertOnFailure }),
    ['evaluation-packs'],
  );

  return (
    <CreateForm
      legend="Schedule"
      submitLabel="Save schedule"
      pending={save.isPending}
      error={save.error}
      onSubmit={() => save.mutate(undefined)}
    >
      <TextInput
        label="Cron schedule (UTC)"
        description="Five fields, e.g. 0 6 * * 1-5, or @hourly, @daily; empty for none"
        value={schedule}
        onChange={(e) => setSchedule(e.currentTarget.value)}
      />
      <Checkbox
        label="Raise an alert when a run fails"
        checked={alertOnFailure}
        onChange={(e) => setAlertOnFailure(e.currentTarget.checked)}
      />
      {pack.nextRunAt ? (
        <Text size="sm">
          Next scheduled run: <When at={pack.nextRunAt} />
        </Text>
      ) : null}
    </CreateForm>
  );
}
