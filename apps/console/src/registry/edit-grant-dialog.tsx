import { TagsInput } from '@mantine/core';
import { useState } from 'react';

import type { Subscription } from '../api/contracts/relay';
import { registry } from '../api/registry-api';
import { useAction } from '../api/use-action';
import { EditDialog } from '../components/edit-dialog';

/** D32: the tools an agent is granted on an MCP server, changed in place (none listed: every tool). */
export function EditGrantDialog({
  subscription,
  title,
  onClose,
}: {
  subscription: Subscription;
  title: string;
  onClose: () => void;
}) {
  const [tools, setTools] = useState<string[]>(subscription.tools ?? []);
  const save = useAction(
    () => registry.updateGrant(subscription.id, tools.length ? tools : null),
    ['subscriptions'],
  );
  return (
    <EditDialog
      title={`Edit the grant of ${title}`}
      pending={save.isPending}
      error={save.error}
      onSave={() => save.mutate(undefined, { onSuccess: onClose })}
      onClose={onClose}
    >
      <TagsInput
        label="Tools granted"
        description="Leave empty to grant every tool"
        value={tools}
        onChange={setTools}
      />
    </EditDialog>
  );
}
