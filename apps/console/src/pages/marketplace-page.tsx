import { PermissionTab, PermissionTabs } from '../components/permission-tabs';
import { MARKETPLACE_NEEDS } from '../layout/tab-needs';
import { ListingInstallationsTab, MyInstallationsTab } from '../marketplace/installations-tabs';
import { BrowseListingsTab, MyListingsTab } from '../marketplace/listings-tabs';

const MARKETPLACE_TABS: PermissionTab[] = [
  { value: 'browse', label: 'Browse', needs: MARKETPLACE_NEEDS.browse, panel: BrowseListingsTab },
  {
    value: 'installed',
    label: 'My installations',
    needs: MARKETPLACE_NEEDS.installed,
    panel: MyInstallationsTab,
  },
  { value: 'mine', label: 'My listings', needs: MARKETPLACE_NEEDS.mine, panel: MyListingsTab },
  {
    value: 'published',
    label: 'Installations of my listings',
    needs: MARKETPLACE_NEEDS.published,
    panel: ListingInstallationsTab,
  },
];

/** Issue 40 item 2 (D47): both sides of the marketplace, installer and publisher (MK1–MK35). */
export function MarketplacePage() {
  return <PermissionTabs title="Marketplace" tabs={MARKETPLACE_TABS} />;
}
