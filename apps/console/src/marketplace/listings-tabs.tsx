import { Button, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ReactNode, useState } from 'react';

import type { ListingResponse, ListingTerms } from '../api/contracts/relay';
import { ListingQuery, marketplaceApi } from '../api/marketplace-api';
import { registry } from '../api/registry-api';
import { useAction } from '../api/use-action';
import { CreateForm } from '../components/create-form';
import { ErrorAlert } from '../components/error-alert';
import { useCan } from '../layout/permissions';

const KINDS = [
  { value: 'AGENT', label: 'Agent' },
  { value: 'MCP_SERVER', label: 'MCP server' },
];

export function termsText(terms: ListingTerms): string {
  switch (terms.type) {
    case 'PER_CALL':
      return `$${terms.priceUsd ?? 0} per call`;
    case 'LICENSED':
      return `licensed (${Math.round((terms.licenceValiditySeconds ?? 0) / 86_400)} days)`;
    case 'FREE':
      return 'free';
  }
}

function ListingsTable({
  label,
  rows,
  action,
}: {
  label: string;
  rows: ListingResponse[] | undefined;
  action: (listing: ListingResponse) => ReactNode;
}) {
  if (rows && rows.length === 0) {
    return <Text c="dimmed">No listing.</Text>;
  }
  return (
    <Table striped aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Kind</Table.Th>
          <Table.Th>Summary</Table.Th>
          <Table.Th>Categories</Table.Th>
          <Table.Th>Terms</Table.Th>
          <Table.Th>Publisher</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Actions</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {(rows ?? []).map((listing) => (
          <Table.Tr key={listing.id}>
            <Table.Td>{listing.name}</Table.Td>
            <Table.Td>{listing.kind === 'AGENT' ? 'Agent' : 'MCP server'}</Table.Td>
            <Table.Td>{listing.summary}</Table.Td>
            <Table.Td>{listing.categories.join(', ')}</Table.Td>
            <Table.Td>{termsText(listing.terms)}</Table.Td>
            <Table.Td>{listing.publisher.slug ?? listing.publisher.tenantId}</Table.Td>
            <Table.Td>{listing.status}</Table.Td>
            <Table.Td>{action(listing)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** MK29: browse and search every published listing as discovery ranks them; install one. */
export function BrowseListingsTab() {
  const [draft, setDraft] = useState<ListingQuery>({});
  const [filters, setFilters] = useState<ListingQuery>({});
  const found = useQuery({
    queryKey: ['listings', filters],
    queryFn: () => marketplaceApi.listings(filters),
  });
  const mayInstallAgents = useCan('REGISTRY', 'WRITE');
  const mayInstallServers = useCan('MCP_REGISTRY', 'WRITE');
  const install = useAction(marketplaceApi.install, ['installations']);
  const mine = useQuery({
    queryKey: ['installations', 'INSTALLED'],
    queryFn: () => marketplaceApi.installations('INSTALLED'),
  });
  const installed = new Set(
    (mine.data?.items ?? []).filter((i) => i.status !== 'REMOVED').map((i) => i.listingId),
  );
  return (
    <Stack>
      <form
        aria-label="Search listings"
        onSubmit={(event) => {
          event.preventDefault();
          setFilters(draft);
        }}
      >
        <Group align="end" wrap="wrap">
          <TextInput
            label="Search listings"
            value={draft.q ?? ''}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setDraft((d) => ({ ...d, q: value }));
            }}
          />
          <Select
            label="Kind"
            data={KINDS}
            clearable
            value={draft.kind ?? null}
            onChange={(value) =>
              setDraft((d) => ({ ...d, kind: (value ?? undefined) as ListingQuery['kind'] }))
            }
          />
          <TextInput
            label="Category"
            value={draft.category ?? ''}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setDraft((d) => ({ ...d, category: value }));
            }}
          />
          <Button type="submit">Search</Button>
        </Group>
      </form>
      <ErrorAlert error={found.error ?? install.error} />
      <ListingsTable
        label="Listings"
        rows={found.data?.items}
        action={(listing) =>
          listing.targetId !== undefined ? (
            <Text size="sm">yours</Text>
          ) : installed.has(listing.id) ? (
            <Text size="sm">installed</Text>
          ) : (listing.kind === 'AGENT' ? mayInstallAgents : mayInstallServers) ? (
            <Button
              size="xs"
              aria-label={`Install ${listing.name}`}
              loading={install.isPending}
              onClick={() => install.mutate(listing)}
            >
              Install
            </Button>
          ) : null
        }
      />
    </Stack>
  );
}

/** D47, MK1: the tenant's own listings; publish an agent or MCP server, unpublish (MK8). */
export function MyListingsTab() {
  const [kind, setKind] = useState<'AGENT' | 'MCP_SERVER'>('MCP_SERVER');
  const [form, setForm] = useState({ targetId: '', name: '', summary: '', category: '' });
  const [terms, setTerms] = useState<ListingTerms['type']>('FREE');
  const mayWrite = useCan(kind === 'AGENT' ? 'REGISTRY' : 'MCP_REGISTRY', 'WRITE');
  const listings = useQuery({
    queryKey: ['listings', 'mine'],
    queryFn: () => marketplaceApi.listings({ mine: true }),
  });
  const targets = useQuery({
    queryKey: ['listing-targets', kind],
    queryFn: async () =>
      kind === 'AGENT'
        ? (await registry.agents()).items.filter((a) => a.visibility === 'PUBLIC')
        : (await registry.mcpServers()).items,
  });
  const publish = useAction(
    () =>
      marketplaceApi.publish({
        kind,
        targetId: form.targetId,
        name: form.name,
        summary: form.summary,
        categories: form.category ? [form.category] : [],
        terms:
          terms === 'LICENSED'
            ? { type: terms, licenceValiditySeconds: 365 * 86_400 }
            : terms === 'PER_CALL'
              ? { type: terms, priceUsd: 0.01 }
              : { type: terms },
      }),
    ['listings'],
  );
  const unpublish = useAction(marketplaceApi.unpublish, ['listings']);
  return (
    <Stack>
      <ErrorAlert error={listings.error ?? unpublish.error} />
      <ListingsTable
        label="My listings"
        rows={listings.data?.items}
        action={(listing) =>
          listing.status === 'PUBLISHED' ? (
            <Button
              size="xs"
              variant="default"
              aria-label={`Unpublish ${listing.name}`}
              onClick={() => unpublish.mutate(listing.id)}
            >
              Unpublish
            </Button>
          ) : null
        }
      />
      {mayWrite ? (
        <CreateForm
          legend="Publish a listing"
          submitLabel="Publish"
          pending={publish.isPending}
          error={publish.error}
          onSubmit={() => publish.mutate(undefined)}
        >
          <Select
            label="Kind"
            data={KINDS}
            value={kind}
            allowDeselect={false}
            onChange={(value) => value && setKind(value as typeof kind)}
          />
          <Select
            label="Target"
            data={(targets.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
            value={form.targetId || null}
            onChange={(value) => setForm((f) => ({ ...f, targetId: value ?? '' }))}
          />
          <TextInput
            label="Listing name"
            value={form.name}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setForm((f) => ({ ...f, name: value }));
            }}
          />
          <TextInput
            label="Summary"
            value={form.summary}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setForm((f) => ({ ...f, summary: value }));
            }}
          />
          <TextInput
            label="Category"
            value={form.category}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setForm((f) => ({ ...f, category: value }));
            }}
          />
          <Select
            label="Terms"
            data={[
              { value: 'FREE', label: 'Free' },
              { value: 'PER_CALL', label: 'Per call ($0.01)' },
              { value: 'LICENSED', label: 'Licensed (one year)' },
            ]}
            value={terms}
            allowDeselect={false}
            onChange={(value) => value && setTerms(value)}
          />
        </CreateForm>
      ) : null}
    </Stack>
  );
}
