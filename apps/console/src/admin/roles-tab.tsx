import { MultiSelect, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import type { RoleResponseDto } from '../api/contracts/tenant-auth';
import { admin } from '../api/admin-api';
import { useAction } from '../api/use-action';
import { CreateForm } from '../components/create-form';
import { ErrorAlert } from '../components/error-alert';
import { ResourceTable } from '../components/resource-table';
import { useCan } from '../layout/permissions';
import { EditRoleDialog } from './edit-role-dialog';
import { PERMISSION_CHOICES, entryOf } from './permission-choices';

/** Roles (D10): named sets of permissions, given to users directly or through groups. */
export function RolesTab() {
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<string[]>([]);
  const [editing, setEditing] = useState<RoleResponseDto | null>(null);
  const mayWrite = useCan('TENANT', 'WRITE');
  const mayDelete = useCan('TENANT', 'DELETE');
  const roles = useQuery({ queryKey: ['roles'], queryFn: admin.roles });
  const create = useAction(
    () => admin.createRole({ name, permissions: permissions.map(entryOf) }),
    ['roles'],
  );
  const remove = useAction((id: string) => admin.deleteRole(id), ['roles']);

  return (
    <Stack>
      <ErrorAlert error={roles.error ?? remove.error} />
      <ResourceTable
        rows={roles.data?.items}
        empty="No roles yet."
        nameOf={(r) => r.name}
        columns={[
          { label: 'Name', render: (r) => r.name },
          {
            label: 'Permissions',
            render: (r) => r.permissions.map((p) => `${p.entity}:${p.permission}`).join(', '),
          },
        ]}
        onEdit={mayWrite ? setEditing : undefined}
        onDelete={mayDelete ? (r) => remove.mutate(r.id) : undefined}
      />
      {editing ? <EditRoleDialog role={editing} onClose={() => setEditing(null)} /> : null}
      {mayWrite ? (
        <CreateForm
          legend="Add a role"
          submitLabel="Add role"
          pending={create.isPending}
          error={create.error}
          onSubmit={() => create.mutate(undefined, { onSuccess: () => setName('') })}
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
            miw={280}
          />
        </CreateForm>
      ) : null}
    </Stack>
  );
}
