import { Select, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { AGENT_VISIBILITIES, AgentVisibility } from '@agp/contracts/enums';

import type { AgentResponse } from '../api/contracts/relay';
import { registry } from '../api/registry-api';
import { useAction } from '../api/use-action';
import { EditDialog } from '../components/edit-dialog';

/** An agent's relay metadata changed in place (its name and secret are tenant-auth's, D30). */
export function EditAgentDialog({ agent, onClose }: { agent: AgentResponse; onClose: () => void }) {
  const [description, setDescription] = useState(agent.description ?? '');
  const [visibility, setVisibility] = useState<AgentVisibility>(agent.visibility);
  const [riskTier, setRiskTier] = useState(agent.riskTier ?? '');
  const save = useAction(
    () =>
      registry.updateAgent(agent.id, {
        description: description || null,
        visibility,
        riskTier: riskTier || null,
      }),
    ['agents'],
  );
  return (
    <EditDialog
      title={`Edit agent ${agent.name}`}
      pending={save.isPending}
      error={save.error}
      onSave={() => save.mutate(undefined, { onSuccess: onClose })}
      onClose={onClose}
    >
      <Textarea
        label="Description"
        value={description}
        onChange={(e) => setDescription(e.currentTarget.value)}
        autosize
      />
      <Select
        label="Visibility"
        data={AGENT_VISIBILITIES}
        value={visibility}
        onChange={(v) => setVisibility(v ?? visibility)}
        allowDeselect={false}
      />
      <TextInput
        label="Risk tier"
        value={riskTier}
        onChange={(e) => setRiskTier(e.currentTarget.value)}
      />
    </EditDialog>
  );
}
