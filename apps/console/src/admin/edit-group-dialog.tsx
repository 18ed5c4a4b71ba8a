import { Loader, MultiSelect, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import type { GroupResponseDto } from '../api/contracts/tenant-auth';
import { admin } from '../api/admin-api';
import { useAction } from '../api/use-action';
import { EditDialog } from '../components/edit-dialog';
import type { RoleOptions } from './use-role-options';

interface Props {
  group: GroupResponseDto;
  roles: RoleOptions;
  /** Absent for a caller without USERS:READ: members are then shown, not chosen. */
  mayChooseMembers: boolean;
  onClose: () => void;
}

/** D29: a group's name, roles and members changed in place (members one call each, as the API has). */
export function EditGroupDialog(props: Props) {
  const members = useQuery({
    queryKey: ['groups', props.group.id, 'members'],
    queryFn: () => admin.members(props.group.id),
  });
  if (!members.data) {
    return <Loader aria-label="Loading the members" />;
  }
  return <GroupForm {...props} memberIds={members.data.items.map((m) => m.userId)} />;
}

function GroupForm({
  group,
  roles,
  mayChooseMembers,
  onClose,
  memberIds,
}: Props & { memberIds: string[] }) {
  const [name, setName] = useState(group.name);
  const [roleIds, setRoleIds] = useState<string[]>(group.roleIds);
  const [chosen, setChosen] = useState<string[]>(memberIds);
  const users = useQuery({ queryKey: ['users'], queryFn: admin.users, enabled: mayChooseMembers });
  const save = useAction(async () => {
    await admin.updateGroup(group.id, { name, roleIds });
    for (const userId of chosen.filter((id) => !memberIds.includes(id))) {
      await admin.addMember(group.id, userId);
    }
    for (const userId of memberIds.filter((id) => !chosen.includes(id))) {
      await admin.removeMember(group.id, userId);
    }
  }, ['groups']);
  return (
    <EditDialog
      title={`Edit group ${group.name}`}
      pending={save.isPending}
      error={save.error}
      onSave={() => save.mutate(undefined, { onSuccess: onClose })}
      onClose={onClose}
    >
      <TextInput
        label="Group name"
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        required
      />
      <MultiSelect label="Roles" data={roles.options} value={roleIds} onChange={setRoleIds} />
      {mayChooseMembers ? (
        <MultiSelect
          label="Members"
          data={(users.data?.items ?? []).map((u) => ({ value: u.id, label: u.email }))}
          value={chosen}
          onChange={setChosen}
          searchable
        />
      ) : null}
    </EditDialog>
  );
}
