import { Stack, Tabs, Text, Title } from '@mantine/core';
import { ComponentType, useContext } from 'react';

import { PermissionsContext, can } from '../layout/permissions';
import type { TabNeeds } from '../layout/tab-needs';

export interface PermissionTab {
  value: string;
  label: string;
  /** What the caller must hold to see this tab at all. */
  needs: TabNeeds;
  panel: ComponentType;
}

/** A page of tabs, each offered only to those who may read it (operation 2's permissions). */
export function PermissionTabs({ title, tabs }: { title: string; tabs: PermissionTab[] }) {
  const granted = useContext(PermissionsContext);
  const offered = tabs.filter((t) => can(granted, ...t.needs));
  return (
    <Stack>
      <Title order={2}>{title}</Title>
      {offered.length ? (
        <Tabs defaultValue={offered[0].value} keepMounted={false}>
          <Tabs.List>
            {offered.map((t) => (
              <Tabs.Tab key={t.value} value={t.value}>
                {t.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {offered.map((t) => (
            <Tabs.Panel key={t.value} value={t.value} pt="md">
              <t.panel />
            </Tabs.Panel>
          ))}
        </Tabs>
      ) : (
        <Text>Your account may not see any of this page.</Text>
      )}
    </Stack>
  );
}
