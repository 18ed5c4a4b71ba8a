import { tenantPolicyExpression } from '@agp/database';

const DAY_MS = 86_400_000;

/** Daily range partitions (UTC days) (A24). */
export function dayStart(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
}

export function addDays(at: Date, days: number): Date {
  return new Date(at.getTime() + days * DAY_MS);
}

export function partitionName(day: Date, table = 'events'): string {
  return `${table}_p${day.toISOString().slice(0, 10).replace(/-/g, '')}`;
}

/** The day a partition name stands for, or undefined for a name that is not one of ours. */
export function dayOfPartition(name: string, table = 'events'): Date | undefined {
  const match = new RegExp(`^${table}_p(\\d{4})(\\d{2})(\\d{2})$`).exec(name);
  return match ? new Date(`${match[1]}-${match[2]}-${match[3]}T00:00:00.000Z`) : undefined;
}

/** Row-level security goes on the partition too. */
export function createPartitionStatements(schema: string, day: Date, parent = 'events'): string[] {
  const from = dayStart(day);
  const to = addDays(from, 1);
  const table = `${schema}.${partitionName(from, parent)}`;
  const policy = tenantPolicyExpression();
  return [
    `CREATE TABLE ${table} PARTITION OF ${schema}.${parent} FOR VALUES FROM ('${from.toISOString()}') TO ('${to.toISOString()}')`,
    `ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`,
    `ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`,
    `CREATE POLICY tenant_isolation ON ${table} USING (${policy}) WITH CHECK (${policy})`,
  ];
}
