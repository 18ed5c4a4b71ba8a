import { Button, Grid, Group, NavLink, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import { platform } from '../api/platform';
import { ErrorAlert } from '../components/error-alert';
import { useCan } from '../layout/permissions';
import { BindingsPanel } from './bindings-panel';
import { TestPanel } from './test-panel';
import { VersionEditor } from './version-editor';
import { VersionsPanel } from './versions-panel';

/** Policy groups and their versions, the Rego editor, diffs, test runs and bindings. */
export function GroupsPanel() {
  const [groupId, setGroupId] = useState<string>();
  const [name, setName] = useState('');
  const mayWrite = useCan('TENANT', 'WRITE');
  const client = useQueryClient();
  const groups = useQuery({ queryKey: ['policy-groups'], queryFn: platform.policyGroups });
  const create = useMutation({
    mutationFn: () => platform.createPolicyGroup(name),
    onSuccess: async (group) => {
      setName('');
      setGroupId(group.id);
      await client.invalidateQueries({ queryKey: ['policy-groups'] });
    },
  });
  const group = groups.data?.items.find((g) => g.id === groupId);

  return (
    <Stack>
      <ErrorAlert error={groups.error} />
      <Grid>
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Stack gap="xs">
            <nav aria-label="Policy groups">
              {groups.data?.items.map((g) => (
                <NavLink
                  variant="filled"
                  key={g.id}
                  label={g.name}
                  active={g.id === groupId}
                  onClick={() => setGroupId(g.id)}
                />
              ))}
            </nav>
            {mayWrite ? (
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  create.mutate();
                }}
              >
                <Group align="end" gap="xs">
                  <TextInput
                    label="New group"
                    value={name}
                    onChange={(e) => setName(e.currentTarget.value)}
                    required
                  />
                  <Button type="submit" loading={create.isPending}>
                    Create
                  </Button>
                </Group>
              </form>
            ) : null}
            <ErrorAlert error={create.error} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          {group ? (
            <Stack>
              <Title order={3}>{group.name}</Title>
              <Text size="sm">
                {group.latestVersion ? `Latest version ${group.latestVersion}` : 'No version yet'} ·{' '}
                {group.versionCount} version(s)
              </Text>
              <Tabs defaultValue="versions" keepMounted={false}>
                <Tabs.List>
                  <Tabs.Tab value="versions">Versions</Tabs.Tab>
                  {mayWrite ? <Tabs.Tab value="editor">New version</Tabs.Tab> : null}
                  <Tabs.Tab value="test">Test</Tabs.Tab>
                  <Tabs.Tab value="bindings">Bindings</Tabs.Tab>
                </Tabs.List>
                <Tabs.Panel value="versions" pt="md">
                  <VersionsPanel groupId={group.id} />
                </Tabs.Panel>
                <Tabs.Panel value="editor" pt="md">
                  <VersionEditor groupId={group.id} />
                </Tabs.Panel>
                <Tabs.Panel value="test" pt="md">
                  <TestPanel groupId={group.id} />
                </Tabs.Panel>
                <Tabs.Panel value="bindings" pt="md">
                  <BindingsPanel groupId={group.id} />
                </Tabs.Panel>
              </Tabs>
            </Stack>
          ) : (
            <Text c="dimmed">Choose a policy group.</Text>
          )}
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
