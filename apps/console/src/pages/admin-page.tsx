import { GroupsTab } from '../admin/groups-tab';
import { IdentityProvidersTab } from '../admin/identity-providers-tab';
import { NotificationsTab } from '../admin/notifications-tab';
import { RetentionTab } from '../admin/retention-tab';
import { RolesTab } from '../admin/roles-tab';
import { UsersTab } from '../admin/users-tab';
import { PermissionTab, PermissionTabs } from '../components/permission-tabs';
import { ADMIN_NEEDS } from '../layout/tab-needs';

const ADMIN_TABS: PermissionTab[] = [
  { value: 'users', label: 'Users', needs: ADMIN_NEEDS.users, panel: UsersTab },
  { value: 'groups', label: 'Groups', needs: ADMIN_NEEDS.groups, panel: GroupsTab },
  { value: 'roles', label: 'Roles', needs: ADMIN_NEEDS.roles, panel: RolesTab },
  {
    value: 'idp',
    label: 'Identity providers',
    needs: ADMIN_NEEDS.idp,
    panel: IdentityProvidersTab,
  },
  { value: 'retention', label: 'Retention', needs: ADMIN_NEEDS.retention, panel: RetentionTab },
  {
    value: 'notifications',
    label: 'Notifications',
    needs: ADMIN_NEEDS.notifications,
    panel: NotificationsTab,
  },
];

export function AdminPage() {
  return <PermissionTabs title="Administration" tabs={ADMIN_TABS} />;
}
