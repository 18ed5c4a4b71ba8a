import { PasswordInput, Select, TagsInput, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { IDENTITY_PROVIDER_TYPES, IdentityProviderType } from '@agp/contracts/enums';

import { admin } from '../api/admin-api';
import { useAction } from '../api/use-action';
import { CreateForm } from '../components/create-form';

/** A new provider (D26) with its domains and one group mapping (D29); more through the API. */
export function IdentityProviderForm() {
  const [alias, setAlias] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [type, setType] = useState<IdentityProviderType>('OKTA');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [issuer, setIssuer] = useState('');
  const [domains, setDomains] = useState<string[]>([]);
  const [upstreamGroup, setUpstreamGroup] = useState('');
  const [groupId, setGroupId] = useState<string | null>(null);
  const groups = useQuery({ queryKey: ['groups'], queryFn: admin.groups });
  const create = useAction(
    () =>
      admin.createIdentityProvider({
        alias,
        displayName,
        enabled: true,
        config: { type, clientId, clientSecret, ...(issuer ? { issuer } : {}) },
        groupMappings: upstreamGroup && groupId ? { [upstreamGroup]: [groupId] } : {},
        emailDomains: domains,
      }),
    ['identity-providers'],
  );

  return (
    <CreateForm
      legend="Add an identity provider"
      submitLabel="Add provider"
      pending={create.isPending}
      error={create.error}
      onSubmit={() => create.mutate()}
    >
      <TextInput
        label="Alias"
        value={alias}
        onChange={(e) => setAlias(e.currentTarget.value)}
        required
      />
      <TextInput
        label="Display name"
        value={displayName}
        onChange={(e) => setDisplayName(e.currentTarget.value)}
        required
      />
      <Select
        label="Type"
        data={IDENTITY_PROVIDER_TYPES}
        value={type}
        onChange={(v) => setType(v ?? 'OKTA')}
        allowDeselect={false}
      />
      <TextInput
        label="Client id"
        value={clientId}
        onChange={(e) => setClientId(e.currentTarget.value)}
        required
      />
      <PasswordInput
        label="Client secret"
        value={clientSecret}
        onChange={(e) => setClientSecret(e.currentTarget.value)}
        required
      />
      <TextInput
        label="Issuer"
        type="url"
        value={issuer}
        onChange={(e) => setIssuer(e.currentTarget.value)}
      />
      <TagsInput label="E-mail domains" value={domains} onChange={setDomains} />
      <TextInput
        label="Provider group"
        value={upstreamGroup}
        onChange={(e) => setUpstreamGroup(e.currentTarget.value)}
      />
      <Select
        label="Maps to group"
        data={(groups.data?.items ?? []).map((g) => ({ value: g.id, label: g.name }))}
        value={groupId}
        onChange={setGroupId}
      />
    </CreateForm>
  );
}
