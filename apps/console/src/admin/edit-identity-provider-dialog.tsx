import { Button, Fieldset, Group, MultiSelect, Switch, TagsInput, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import type { IdentityProviderResponseDto } from '../api/contracts/tenant-auth';
import { admin } from '../api/admin-api';
import { useAction } from '../api/use-action';
import { EditDialog } from '../components/edit-dialog';

interface Mapping {
  upstream: string;
  groupIds: string[];
}

/**
 * A provider's name, state, e-mail domains and group mapping (D26, D29) changed in place; a
 * domain kept keeps its verification, a new one starts unverified (operation 5).
 */
export function EditIdentityProviderDialog({
  provider,
  onClose,
}: {
  provider: IdentityProviderResponseDto;
  onClose: () => void;
}) {
  const [displayName, setDisplayName] = useState(provider.displayName);
  const [enabled, setEnabled] = useState(provider.enabled);
  const [domains, setDomains] = useState(provider.emailDomains.map((d) => d.domain));
  const [mappings, setMappings] = useState<Mapping[]>(
    Object.entries(provider.groupMappings).map(([upstream, groupIds]) => ({ upstream, groupIds })),
  );
  const groups = useQuery({ queryKey: ['groups'], queryFn: admin.groups });
  const groupOptions = (groups.data?.items ?? []).map((g) => ({ value: g.id, label: g.name }));
  const save = useAction(
    () =>
      admin.updateIdentityProvider(provider.id, {
        displayName,
        enabled,
        emailDomains: domains,
        groupMappings: Object.fromEntries(
          mappings.filter((m) => m.upstream).map((m) => [m.upstream, m.groupIds]),
        ),
      }),
    ['identity-providers'],
  );
  const change = (index: number, next: Partial<Mapping>) =>
    setMappings(mappings.map((m, i) => (i === index ? { ...m, ...next } : m)));

  return (
    <EditDialog
      title={`Edit identity provider ${provider.displayName}`}
      pending={save.isPending}
      error={save.error}
      onSave={() => save.mutate(undefined, { onSuccess: onClose })}
      onClose={onClose}
    >
      <TextInput
        label="Display name"
        value={displayName}
        onChange={(e) => setDisplayName(e.currentTarget.value)}
        required
      />
      <Switch
        label="Enabled"
        checked={enabled}
        onChange={(e) => setEnabled(e.currentTarget.checked)}
      />
      <TagsInput label="E-mail domains" value={domains} onChange={setDomains} />
      <Fieldset legend="Group mapping">
        {mappings.map((m, index) => (
          <Group key={index} align="end" mb="xs">
            <TextInput
              label={`Provider group ${index + 1}`}
              value={m.upstream}
              onChange={(e) => change(index, { upstream: e.currentTarget.value })}
            />
            <MultiSelect
              label={`Groups for provider group ${index + 1}`}
              data={groupOptions}
              value={m.groupIds}
              onChange={(groupIds) => change(index, { groupIds })}
              miw={200}
            />
            <Button
              variant="default"
              aria-label={`Remove provider group ${index + 1}`}
              onClick={() => setMappings(mappings.filter((_, i) => i !== index))}
            >
              Remove
            </Button>
          </Group>
        ))}
        <Button
          variant="default"
          onClick={() => setMappings([...mappings, { upstream: '', groupIds: [] }])}
        >
          Add a provider group
        </Button>
      </Fieldset>
    </EditDialog>
  );
}
