import { Select, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { AGENT_VISIBILITIES, AgentVisibility } from '@agp/contracts/enums';

import type { AgentResponse } from '../api/contracts/relay';
import { registry } from '../api/registry-api';
import { useAction } from '../api/use-action';
import { EditDialog } from '../components/edit-dialog';

/**
 * An agent changed in place: its name in tenant-auth (the identity's, D30), then the relay's
 * metadata. The relay's list takes the new name from tenant-auth's event, so `onRenamed` lets the
 * list wait for it.
 */
export function EditAgentDialog({
  agent,
  onRenamed,
  onClose,
}: {
  agent: AgentResponse;
  onRenamed: (name: string) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState(agent.name);
  const [description, setDescription] = useState(agent.description ?? '');
  const [visibility, setVisibility] = useState<AgentVisibility>(agent.visibility);
  const [riskTier, setRiskTier] = useState(agent.riskTier ?? '');
  const save = useAction(async () => {
    // The name first: a duplicate is refused before anything else changed.
    if (name !== agent.name) {
      await registry.renameAgent(agent.id, name);
      onRenamed(name);
    }
    return registry.updateAgent(agent.id, {
      description: description || null,
      visibility,
      riskTier: riskTier || null,
    });
  }, ['agents']);
  return (
    <EditDialog
      title={`Edit agent ${agent.name}`}
      pending={save.isPending}
      error={save.error}
      onSave={() => save.mutate(undefined, { onSuccess: onClose })}
      onClose={onClose}
    >
      <TextInput
        label="Agent name"
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        required
      />
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
