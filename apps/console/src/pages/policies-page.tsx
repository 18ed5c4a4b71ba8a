import { Stack, Tabs, Title } from '@mantine/core';

import { PacksPanel } from '../evaluations/packs-panel';
import { GroupsPanel } from '../policies/groups-panel';

/** Policies: groups with their versions, tests and bindings; evaluation packs and their runs. */
export function PoliciesPage() {
  return (
    <Stack>
      <Title order={2}>Policies</Title>
      <Tabs defaultValue="groups" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="groups">Policy groups</Tabs.Tab>
          <Tabs.Tab value="packs">Evaluation packs</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="groups" pt="md">
          <GroupsPanel />
        </Tabs.Panel>
        <Tabs.Panel value="packs" pt="md">
          <PacksPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
