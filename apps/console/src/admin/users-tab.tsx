import { MultiSelect, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import type { UserResponseDto } from '../api/contracts/tenant-auth';
import { admin } from '../api/admin-api';
import { useAction } from '../api/use-action';
import { CreateForm } from '../components/create-form';
import { ErrorAlert } from '../components/error-alert';
import { ResourceTable } from '../components/resource-table';
import { When } from '../components/when';
import { useCan } from '../layout/permissions';
import { EditUserDialog } from './edit-user-dialog';
import { useRoleOptions } from './use-role-options';

/** The tenant's users; a password only for local sign-in (a provider's users have none). */
export function UsersTab() {
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const [roleIds, setRoleIds] = useState<string[]>([]);
  const [editing, setEditing] = useState<UserResponseDto | null>(null);
  const mayWrite = useCan('USERS', 'WRITE');
  const mayDelete = useCan('USERS', 'DELETE');
  const roles = useRoleOptions();
  const users = useQuery({ queryKey: ['users'], queryFn: admin.users });
  const create = useAction(
    () => admin.createUser({ email, displayName, roleIds, ...(password ? { password } : {}) }),
    ['users'],
  );
  const remove = useAction((id: string) => admin.deleteUser(id), ['users']);

  return (
    <Stack>
      <ErrorAlert error={users.error ?? remove.error} />
      <ResourceTable
        rows={users.data?.items}
        empty="No users."
        nameOf={(u) => u.email}
        columns={[
          { label: 'E-mail', render: (u) => u.email },
          { label: 'Name', render: (u) => u.displayName },
          { label: 'Status', render: (u) => u.status },
          { label: 'Sign-in', render: (u) => (u.hasPassword ? 'password' : 'identity provider') },
          { label: 'Roles', render: (u) => u.roleIds.map(roles.nameOf).join(', ') || '—' },
          { label: 'Created', render: (u) => <When at={u.createdAt} /> },
        ]}
        onEdit={mayWrite ? setEditing : undefined}
        onDelete={mayDelete ? (u) => remove.mutate(u.id) : undefined}
      />
      {editing ? (
        <EditUserDialog user={editing} roles={roles} onClose={() => setEditing(null)} />
      ) : null}
      {mayWrite ? (
        <CreateForm
          legend="Add a user"
          submitLabel="Add user"
          pending={create.isPending}
          error={create.error}
          onSubmit={() => create.mutate()}
        >
          <TextInput
            label="E-mail"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            required
          />
          <TextInput
            label="Display name"
            value={displayName}
            onChange={(e) => setDisplayName(e.currentTarget.value)}
            required
          />
          <PasswordInput
            label="Password"
            description="At least 12 characters; none for provider sign-in"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <MultiSelect label="Roles" data={roles.options} value={roleIds} onChange={setRoleIds} />
        </CreateForm>
      ) : null}
    </Stack>
  );
}
