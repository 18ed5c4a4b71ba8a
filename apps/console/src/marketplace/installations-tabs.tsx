import { Button, Group, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';

import { Installation, licenceState, marketplaceApi } from '../api/marketplace-api';
import { useAction } from '../api/use-action';
import { ErrorAlert } from '../components/error-alert';

/**
 * MK23, MK25: the newest licence of one installation, read with it (the list carries none), and
 * its renewal when the installation holds one.
 */
function LicenceCell({ installation, name }: { installation: Installation; name: string }) {
  const read = useQuery({
    queryKey: ['installations', installation.id],
    queryFn: () => marketplaceApi.installation(installation.id),
  });
  const renew = useAction(marketplaceApi.renew, ['installations']);
  if (!read.data) {
    return <>…</>;
  }
  return (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm">{licenceState(read.data.licence)}</Text>
      {read.data.licence ? (
        <Button
          size="xs"
          variant="default"
          aria-label={`Renew licence of ${name}`}
          loading={renew.isPending}
          onClick={() => renew.mutate(installation.id)}
        >
          Renew licence
        </Button>
      ) : null}
      <ErrorAlert error={renew.error} />
    </Group>
  );
}

/** MK11, MK14, MK25: what this tenant installed, its licences, renewal and removal. */
export function MyInstallationsTab() {
  const installations = useQuery({
    queryKey: ['installations', 'INSTALLED'],
    queryFn: () => marketplaceApi.installations('INSTALLED'),
  });
  const remove = useAction(marketplaceApi.remove, ['installations']);
  const rows = (installations.data?.items ?? []).filter((i) => i.status !== 'REMOVED');
  return (
    <Stack>
      <ErrorAlert error={installations.error ?? remove.error} />
      {installations.data && rows.length === 0 ? (
        <Text c="dimmed">Nothing installed from the marketplace.</Text>
      ) : (
        <Table striped aria-label="My installations">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Listing</Table.Th>
              <Table.Th>Kind</Table.Th>
              <Table.Th>Publisher</Table.Th>
              <Table.Th>Entry</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Licence</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((i) => {
              const name = i.listingName ?? i.listingId;
              return (
                <Table.Tr key={i.id}>
                  <Table.Td>{name}</Table.Td>
                  <Table.Td>{i.kind === 'AGENT' ? 'Agent' : 'MCP server'}</Table.Td>
                  <Table.Td>{i.publisher?.slug ?? i.publisher?.tenantId}</Table.Td>
                  <Table.Td>{i.agentId ?? i.mcpServerId}</Table.Td>
                  <Table.Td>{i.status}</Table.Td>
                  <Table.Td>
                    <LicenceCell installation={i} name={name} />
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={`Remove ${name}`}
                      onClick={() => remove.mutate(i.id)}
                    >
                      Remove
                    </Button>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

/** MK11, D59: who installed this tenant's listings; the publisher suspends or resumes (MK16). */
export function ListingInstallationsTab() {
  const installations = useQuery({
    queryKey: ['installations', 'PUBLISHED'],
    queryFn: () => marketplaceApi.installations('PUBLISHED'),
  });
  const setStatus = useAction(
    ({ id, status }: { id: string; status: 'ACTIVE' | 'SUSPENDED' }) =>
      marketplaceApi.setStatus(id, status),
    ['installations'],
  );
  const rows = (installations.data?.items ?? []).filter((i) => i.status !== 'REMOVED');
  return (
    <Stack>
      <ErrorAlert error={installations.error ?? setStatus.error} />
      {installations.data && rows.length === 0 ? (
        <Text c="dimmed">No tenant has installed your listings.</Text>
      ) : (
        <Table striped aria-label="Installations of my listings">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Listing</Table.Th>
              <Table.Th>Installer</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((i) => {
              const name = i.listingName ?? i.listingId;
              const installer = i.installer?.slug ?? i.installer?.tenantId ?? '';
              const next = i.status === 'ACTIVE' ? 'SUSPENDED' : 'ACTIVE';
              const verb = next === 'SUSPENDED' ? 'Suspend' : 'Resume';
              return (
                <Table.Tr key={i.id}>
                  <Table.Td>{name}</Table.Td>
                  <Table.Td>{installer}</Table.Td>
                  <Table.Td>{i.status}</Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={`${verb} ${name} for ${installer}`}
                      onClick={() => setStatus.mutate({ id: i.id, status: next })}
                    >
                      {verb}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
