import { Button, Table, Text } from '@mantine/core';
import { ReactNode } from 'react';

export interface Column<Row> {
  label: string;
  render: (row: Row) => ReactNode;
}

interface Props<Row extends { id: string }> {
  rows: Row[] | undefined;
  columns: Column<Row>[];
  /** What a row is called in its delete button's accessible name ("Delete agent x"). */
  nameOf: (row: Row) => string;
  /** Absent when the caller may not delete: the button is then not offered. */
  onDelete?: (row: Row) => void;
  deleteLabel?: string;
  /** Whether one row offers the delete action (a released kill switch does not). */
  canDelete?: (row: Row) => boolean;
  empty: string;
}

/** The list of a registry or administration page: Mantine's table, a delete action when allowed. */
export function ResourceTable<Row extends { id: string }>(props: Props<Row>) {
  const { rows, columns, nameOf, onDelete, deleteLabel = 'Delete', canDelete, empty } = props;
  if (!rows?.length) {
    return <Text c="dimmed">{rows ? empty : 'Loading…'}</Text>;
  }
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.label}>{c.label}</Table.Th>
            ))}
            {onDelete ? <Table.Th>Actions</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id}>
              {columns.map((c) => (
                <Table.Td key={c.label}>{c.render(row)}</Table.Td>
              ))}
              {onDelete ? (
                <Table.Td>
                  {canDelete && !canDelete(row) ? null : (
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={`${deleteLabel} ${nameOf(row)}`}
                      onClick={() => onDelete(row)}
                    >
                      {deleteLabel}
                    </Button>
                  )}
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
