import { QueryRunner } from 'typeorm';

/** The role tenant-scoped transactions switch to: no BYPASSRLS, so row-level security applies. */
export const APP_ROLE = 'agp_app';

/** Session settings read by the row-level-security policies (always `SET LOCAL`, see Database). */
export const TENANT_SETTING = 'app.tenant_id';
export const SYSTEM_SETTING = 'app.system';

/** An unset setting reads as '' (not NULL), hence nullif. */
export function tenantPolicyExpression(column = 'tenant_id'): string {
  return (
    `current_setting('${SYSTEM_SETTING}', true) = 'on' OR ` +
    `${column} = nullif(current_setting('${TENANT_SETTING}', true), '')::uuid`
  );
}

export async function enableTenantRls(runner: QueryRunner, qualifiedTable: string): Promise<void> {
  const expression = tenantPolicyExpression();
  await runner.query(`ALTER TABLE ${qualifiedTable} ENABLE ROW LEVEL SECURITY`);
  await runner.query(`ALTER TABLE ${qualifiedTable} FORCE ROW LEVEL SECURITY`);
  await runner.query(
    `CREATE POLICY tenant_isolation ON ${qualifiedTable} USING (${expression}) WITH CHECK (${expression})`,
  );
}

export async function disableTenantRls(runner: QueryRunner, qualifiedTable: string): Promise<void> {
  await runner.query(`DROP POLICY IF EXISTS tenant_isolation ON ${qualifiedTable}`);
  await runner.query(`ALTER TABLE ${qualifiedTable} NO FORCE ROW LEVEL SECURITY`);
  await runner.query(`ALTER TABLE ${qualifiedTable} DISABLE ROW LEVEL SECURITY`);
}
