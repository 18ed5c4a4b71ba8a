import { Button, Group, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ReactNode } from 'react';

import type { InstallationResponse } from '../api/contracts/relay';
import { licenceState, marketplaceApi } from '../api/marketplace-api';
import { useAction } from '../api/use-action';
import { ErrorAlert } from '../components/error-alert';

/**
 * MK23, MK25: the newest licence of one installation, read with it (the list carries none), and
 * its renewal when the installation holds one.
 */
function LicenceCell({ installation, name }: { installation: InstallationResponse; name: string }) {
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

/** One row of an installation as a side reads it: the listing's name comes first on both. */
interface InstallationRow {
  installation: InstallationResponse;
  name: string;
}

/** A column between the listing's and the action's. */
interface Column {
  header: string;
  cell: (row: InstallationRow) => ReactNode;
}

/** The one thing a side does to a row (remove, suspend, resume). */
interface RowAction {
  label: string;
  ariaLabel: string;
  run: () => void;
}

interface InstallationsTableProps {
  side: 'INSTALLED' | 'PUBLISHED';
  label: string;
  empty: string;
  columns: Column[];
  action: (row: InstallationRow) => RowAction;
  actionError: unknown;
}

/** MK11: one side's installations, removed ones left out, each row with its side's action. */
function InstallationsTable({
  side,
  label,
  empty,
  columns,
  action,
  actionError,
}: InstallationsTableProps) {
  const installations = useQuery({
    queryKey: ['installations', side],
    queryFn: () => marketplaceApi.installations(side),
  });
  const rows = (installations.data?.items ?? [])
    .filter((i) => i.status !== 'REMOVED')
    .map((i) => ({ installation: i, name: i.listingName ?? i.listingId }));
  return (
    <Stack>
      <ErrorAlert error={installations.error ?? actionError} />
      {installations.data && rows.length === 0 ? (
        <Text c="dimmed">{empty}</Text>
      ) : (
        <Table striped aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Listing</Table.Th>
              {columns.map((column) => (
                <Table.Th key={column.header}>{column.header}</Table.Th>
              ))}
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => {
              const { label: verb, ariaLabel, run } = action(row);
              return (
                <Table.Tr key={row.installation.id}>
                  <Table.Td>{row.name}</Table.Td>
                  {columns.map((column) => (
                    <Table.Td key={column.header}>{column.cell(row)}</Table.Td>
                  ))}
                  <Table.Td>
                    <Button size="xs" variant="default" aria-label={ariaLabel} onClick={run}>
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

const INSTALLER_COLUMNS: Column[] = [
  {
    header: 'Kind',
    cell: ({ installation }) => (installation.kind === 'AGENT' ? 'Agent' : 'MCP server'),
  },
  {
    header: 'Publisher',
    cell: ({ installation }) => installation.publisher?.slug ?? installation.publisher?.tenantId,
  },
  {
    header: 'Entry',
    cell: ({ installation }) => installation.agentId ?? installation.mcpServerId,
  },
  { header: 'Status', cell: ({ installation }) => installation.status },
  { header: 'Licence', cell: (row) => <LicenceCell {...row} /> },
];

/** MK11, MK14, MK25: what this tenant installed, its licences, renewal and removal. */
export function MyInstallationsTab() {
  const remove = useAction(marketplaceApi.remove, ['installations']);
  return (
    <InstallationsTable
      side="INSTALLED"
      label="My installations"
      empty="Nothing installed from the marketplace."
      columns={INSTALLER_COLUMNS}
      action={({ installation, name }) => ({
        label: 'Remove',
        ariaLabel: `Remove ${name}`,
        run: () => remove.mutate(installation.id),
      })}
      actionError={remove.error}
    />
  );
}

const installerOf = ({ installation }: InstallationRow): string =>
  installation.installer?.slug ?? installation.installer?.tenantId ?? '';

const PUBLISHER_COLUMNS: Column[] = [
  { header: 'Installer', cell: installerOf },
  { header: 'Status', cell: ({ installation }) => installation.status },
];

/** MK11, D59: who installed this tenant's listings; the publisher suspends or resumes (MK16). */
export function ListingInstallationsTab() {
  const setStatus = useAction(
    ({ id, status }: { id: string; status: 'ACTIVE' | 'SUSPENDED' }) =>
      marketplaceApi.setStatus(id, status),
    ['installations'],
  );
  return (
    <InstallationsTable
      side="PUBLISHED"
      label="Installations of my listings"
      empty="No tenant has installed your listings."
      columns={PUBLISHER_COLUMNS}
      action={(row) => {
        const next = row.installation.status === 'ACTIVE' ? 'SUSPENDED' : 'ACTIVE';
        const verb = next === 'SUSPENDED' ? 'Suspend' : 'Resume';
        return {
          label: verb,
          ariaLabel: `${verb} ${row.name} for ${installerOf(row)}`,
          run: () => setStatus.mutate({ id: row.installation.id, status: next }),
        };
      }}
      actionError={setStatus.error}
    />
  );
}
