import { Button, Group, Table, Text } from '@mantine/core';
import { ReactNode } from 'react';

export interface Column<Row> {
  label: string;
  render: (row: Row) => ReactNode;
}

/** A further action on one row (rotating an agent's secret), offered only when allowed. */
export interface RowAction<Row> {
  label: string;
  /** Its accessible name for one row ("Rotate secret of x"). */
  nameFor: (row: Row) => string;
  run: (row: Row) => void;
}

interface Props<Row extends { id: string }> {
  rows: Row[] | undefined;
  columns: Column<Row>[];
  /** What a row is called in its buttons' accessible names ("Edit x", "Delete x"). */
  nameOf: (row: Row) => string;
  /** Absent when the caller may not change entries: the button is then not offered. */
  onEdit?: (row: Row) => void;
  /** Whether one row offers the edit action (only an MCP subscription has a grant to change). */
  canEdit?: (row: Row) => boolean;
  /** Absent when the caller may not delete: the button is then not offered. */
  onDelete?: (row: Row) => void;
  deleteLabel?: string;
  /** Whether one row offers the delete action (a released kill switch does not). */
  canDelete?: (row: Row) => boolean;
  /** Absent or empty when the caller may take none: no button is then offered. */
  actions?: RowAction<Row>[];
  empty: string;
}

/** The list of a registry or administration page: Mantine's table, edit and delete when allowed. */
export function ResourceTable<Row extends { id: string }>(props: Props<Row>) {
  const { rows, columns, nameOf, onEdit, canEdit, onDelete, canDelete, empty } = props;
  const deleteLabel = props.deleteLabel ?? 'Delete';
  const actions = props.actions ?? [];
  const withActions = Boolean(onEdit ?? onDelete) || actions.length > 0;
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
            {withActions ? <Table.Th>Actions</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id}>
              {columns.map((c) => (
                <Table.Td key={c.label}>{c.render(row)}</Table.Td>
              ))}
              {withActions ? (
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    {onEdit && (!canEdit || canEdit(row)) ? (
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`Edit ${nameOf(row)}`}
                        onClick={() => onEdit(row)}
                      >
                        Edit
                      </Button>
                    ) : null}
                    {actions.map((action) => (
                      <Button
                        key={action.label}
                        size="xs"
                        variant="default"
                        aria-label={action.nameFor(row)}
                        onClick={() => action.run(row)}
                      >
                        {action.label}
                      </Button>
                    ))}
                    {onDelete && (!canDelete || canDelete(row)) ? (
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`${deleteLabel} ${nameOf(row)}`}
                        onClick={() => onDelete(row)}
                      >
                        {deleteLabel}
                      </Button>
                    ) : null}
                  </Group>
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
