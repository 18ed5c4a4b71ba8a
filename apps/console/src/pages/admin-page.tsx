import { GroupsTab } from '../admin/groups-tab';
import { IdentityProvidersTab } from '../admin/identity-providers-tab';
import { RetentionTab } from '../admin/retention-tab';
import { RolesTab } from '../admin/roles-tab';
import { UsersTab } from '../admin/users-tab';
import { PermissionTab, PermissionTabs } from '../components/permission-tabs';

/** The entities each tab reads are those tenant-auth's and the audit's routes require. */
export const ADMIN_TABS: PermissionTab[] = [
  { value: 'users', label: 'Users', needs: ['USERS', 'READ'], panel: UsersTab },
  { value: 'groups', label: 'Groups', needs: ['GROUPS', 'READ'], panel: GroupsTab },
  { value: 'roles', label: 'Roles', needs: ['TENANT', 'READ'], panel: RolesTab },
  {
    value: 'idp',
    label: 'Identity providers',
    needs: ['IDENTITY_PROVIDERS', 'READ'],
    panel: IdentityProvidersTab,
  },
  { value: 'retention', label: 'Retention', needs: ['AUDIT', 'READ'], panel: RetentionTab },
];

export function AdminPage() {
  return <PermissionTabs title="Administration" tabs={ADMIN_TABS} />;
}
