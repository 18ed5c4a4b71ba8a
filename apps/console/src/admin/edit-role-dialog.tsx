import { MultiSelect, TextInput } from '@mantine/core';
import { useState } from 'react';

import type { RoleResponseDto } from '../api/contracts/tenant-auth';
import { admin } from '../api/admin-api';
import { useAction } from '../api/use-action';
import { EditDialog } from '../components/edit-dialog';
import { PERMISSION_CHOICES, entryOf } from './permission-choices';

/** A role renamed or given other permissions (D10); its holders' permissions follow. */
export function EditRoleDialog({ role, onClose }: { role: RoleResponseDto; onClose: () => void }) {
  const [name, setName] = useState(role.name);
  const [permissions, setPermissions] = useState<string[]>(
    role.permissions.map((p) => `${p.entity}:${p.permission}`),
  );
  const save = useAction(
    () => admin.updateRole(role.id, { name, permissions: permissions.map(entryOf) }),
    ['roles'],
  );
  return (
    <EditDialog
      title={`Edit role ${role.name}`}
      pending={save.isPending}
      error={save.error}
      onSave={() => save.mutate(undefined, { onSuccess: onClose })}
      onClose={onClose}
    >
      <TextInput
        label="Role name"
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        required
      />
      <MultiSelect
        label="Permissions"
        data={PERMISSION_CHOICES}
        value={permissions}
        onChange={setPermissions}
        searchable
      />
    </EditDialog>
  );
}
