import { MultiSelect, PasswordInput, Select, TextInput } from '@mantine/core';
import { useState } from 'react';

import type { UserResponseDto } from '../api/contracts/tenant-auth';
import { admin } from '../api/admin-api';
import { useAction } from '../api/use-action';
import { EditDialog } from '../components/edit-dialog';
import type { RoleOptions } from './use-role-options';

type UserStatus = UserResponseDto['status'];
const STATUSES: UserStatus[] = ['ACTIVE', 'DISABLED'];

/** A user's name, status, roles and (for local sign-in) password changed in place; not the e-mail. */
export function EditUserDialog({
  user,
  roles,
  onClose,
}: {
  user: UserResponseDto;
  roles: RoleOptions;
  onClose: () => void;
}) {
  const [displayName, setDisplayName] = useState(user.displayName);
  const [status, setStatus] = useState<UserStatus>(user.status);
  const [roleIds, setRoleIds] = useState<string[]>(user.roleIds);
  const [password, setPassword] = useState('');
  const save = useAction(
    () =>
      admin.updateUser(user.id, {
        displayName,
        status,
        roleIds,
        ...(password ? { password } : {}),
      }),
    ['users'],
  );
  return (
    <EditDialog
      title={`Edit user ${user.email}`}
      pending={save.isPending}
      error={save.error}
      onSave={() => save.mutate(undefined, { onSuccess: onClose })}
      onClose={onClose}
    >
      <TextInput
        label="Display name"
        value={displayName}
        onChange={(e) => setDisplayName(e.currentTarget.value)}
        required
      />
      <Select
        label="Status"
        data={STATUSES}
        value={status}
        onChange={(v) => setStatus(v ?? status)}
        allowDeselect={false}
      />
      <MultiSelect label="Roles" data={roles.options} value={roleIds} onChange={setRoleIds} />
      <PasswordInput
        label="New password"
        description="At least 12 characters; leave empty to keep the current one"
        value={password}
        onChange={(e) => setPassword(e.currentTarget.value)}
      />
    </EditDialog>
  );
}
