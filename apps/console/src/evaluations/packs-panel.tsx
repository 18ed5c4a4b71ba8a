import { Anchor, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import { evaluations } from '../api/evaluations-api';
import { useAction } from '../api/use-action';
import { CreateForm } from '../components/create-form';
import { ErrorAlert } from '../components/error-alert';
import { ResourceTable } from '../components/resource-table';
import { useCan } from '../layout/permissions';
import { PackDetail } from './pack-detail';
import { RunStatusBadge } from './run-status-badge';

/** D27: evaluation packs, hops with what the policies should decide, checked by runs (D15). */
export function PacksPanel() {
  const [name, setName] = useState('');
  const [packId, setPackId] = useState<string>();
  const mayWrite = useCan('TENANT', 'WRITE');
  const packs = useQuery({ queryKey: ['evaluation-packs'], queryFn: evaluations.packs });
  const create = useAction(() => evaluations.createPack({ name }), ['evaluation-packs']);
  const pack = packs.data?.items.find((p) => p.id === packId);

  return (
    <Stack>
      <ErrorAlert error={packs.error} />
      <ResourceTable
        rows={packs.data?.items}
        empty="No evaluation packs yet."
        nameOf={(p) => p.name}
        columns={[
          {
            label: 'Pack',
            render: (p) => (
              <Anchor component="button" type="button" onClick={() => setPackId(p.id)}>
                {p.name}
              </Anchor>
            ),
          },
          { label: 'Owner', render: (p) => p.owner.name },
          { label: 'Evaluations', render: (p) => p.evaluations.length },
          { label: 'Enabled', render: (p) => (p.enabled ? 'yes' : 'no') },
          { label: 'Schedule', render: (p) => p.schedule ?? '—' },
          {
            label: 'Last run',
            render: (p) => (p.lastRun ? <RunStatusBadge run={p.lastRun} /> : 'never'),
          },
        ]}
      />
      {mayWrite ? (
        <CreateForm
          legend="New evaluation pack"
          submitLabel="Create pack"
          pending={create.isPending}
          error={create.error}
          onSubmit={() => create.mutate(undefined, { onSuccess: () => setName('') })}
        >
          <TextInput
            label="Pack name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
          />
        </CreateForm>
      ) : null}
      {pack ? <PackDetail pack={pack} /> : null}
    </Stack>
  );
}
