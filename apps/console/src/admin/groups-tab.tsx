import { MultiSelect, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import type { GroupResponseDto } from '../api/contracts/tenant-auth';
import { admin } from '../api/admin-api';
import { useAction } from '../api/use-action';
import { CreateForm } from '../components/create-form';
import { ErrorAlert } from '../components/error-alert';
import { ResourceTable } from '../components/resource-table';
import { useCan } from '../layout/permissions';
import { EditGroupDialog } from './edit-group-dialog';
import { useRoleOptions } from './use-role-options';

/** D29: groups give their members roles; a provider's group mapping fills them at sign-in. */
export function GroupsTab() {
  const [name, setName] = useState('');
  const [roleIds, setRoleIds] = useState<string[]>([]);
  const [editing, setEditing] = useState<GroupResponseDto | null>(null);
  const mayChooseMembers = useCan('USERS', 'READ');
  const mayWrite = useCan('GROUPS', 'WRITE');
  const mayDelete = useCan('GROUPS', 'DELETE');
  const roles = useRoleOptions();
  const groups = useQuery({ queryKey: ['groups'], queryFn: admin.groups });
  const create = useAction(() => admin.createGroup({ name, roleIds }), ['groups']);
  const remove = useAction((id: string) => admin.deleteGroup(id), ['groups']);

  return (
    <Stack>
      <ErrorAlert error={groups.error ?? remove.error} />
      <ResourceTable
        rows={groups.data?.items}
        empty="No groups yet."
        nameOf={(g) => g.name}
        columns={[
          { label: 'Name', render: (g) => g.name },
          { label: 'Roles', render: (g) => g.roleIds.map(roles.nameOf).join(', ') || '—' },
          { label: 'Members', render: (g) => <Members groupId={g.id} /> },
        ]}
        onEdit={mayWrite ? setEditing : undefined}
        onDelete={mayDelete ? (g) => remove.mutate(g.id) : undefined}
      />
      {editing ? (
        <EditGroupDialog
          group={editing}
          roles={roles}
          mayChooseMembers={mayChooseMembers}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {mayWrite ? (
        <CreateForm
          legend="Add a group"
          submitLabel="Add group"
          pending={create.isPending}
          error={create.error}
          onSubmit={() => create.mutate(undefined, { onSuccess: () => setName('') })}
        >
          <TextInput
            label="Group name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
          />
          <MultiSelect label="Roles" data={roles.options} value={roleIds} onChange={setRoleIds} />
        </CreateForm>
      ) : null}
    </Stack>
  );
}

function Members({ groupId }: { groupId: string }) {
  const members = useQuery({
    queryKey: ['groups', groupId, 'members'],
    queryFn: () => admin.members(groupId),
  });
  const items = members.data?.items ?? [];
  return <Text size="sm">{items.map((m) => m.email).join(', ') || '—'}</Text>;
}
