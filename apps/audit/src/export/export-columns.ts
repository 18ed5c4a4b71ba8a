/** `isText`: free text that may need the formula guard (D17). */
export const EXPORT_COLUMNS: ReadonlyArray<{ name: string; sql: string; isText: boolean }> = [
  { name: 'id', sql: 'id::text', isText: false },
  {
    name: 'occurredAt',
    sql: `to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    isText: false,
  },
  { name: 'tenantId', sql: 'tenant_id::text', isText: false },
  { name: 'eventType', sql: 'event_type', isText: false },
  { name: 'protocol', sql: 'protocol', isText: false },
  { name: 'action', sql: 'action', isText: false },
  { name: 'actorType', sql: 'actor_type', isText: true },
  { name: 'actorId', sql: 'actor_id', isText: true },
  { name: 'sourceType', sql: 'source_type', isText: true },
  { name: 'sourceId', sql: 'source_id', isText: true },
  { name: 'sinkType', sql: 'sink_type', isText: true },
  { name: 'sinkId', sql: 'sink_id', isText: true },
  // A7: an event may involve several policies; they share the one column, separated by ';'.
  { name: 'policyId', sql: `nullif(array_to_string(policy_ids, ';'), '')`, isText: false },
  { name: 'correlationId', sql: 'correlation_id', isText: true },
  { name: 'summary', sql: 'summary', isText: true },
];

// D17: a cell that starts with `=`, `+`, `-`, `@`, tab or carriage return gets a leading `'`, so a
// spreadsheet shows it as text instead of running it as a formula.
export function neutralised(sql: string): string {
  // ascii() of the first character: = 61, + 43, - 45, @ 64, tab 9, CR 13 (cheaper than a regex).
  return `CASE WHEN ascii(${sql}) IN (61, 43, 45, 64, 9, 13) THEN '''' || ${sql} ELSE ${sql} END`;
}

export function exportSelectList(): string {
  return EXPORT_COLUMNS.map(
    (column) => `${column.isText ? neutralised(column.sql) : column.sql} AS "${column.name}"`,
  ).join(', ');
}
