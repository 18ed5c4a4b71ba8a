/** Migrations write their own SQL (they never import runtime code); this is for specs only. */
export async function createJobRunsTable(
  runner: { query(sql: string): Promise<unknown> },
  schema: string,
): Promise<void> {
  await runner.query(`
    CREATE TABLE ${schema}.job_runs (
      job text NOT NULL,
      slot timestamptz NOT NULL,
      replica text NOT NULL,
      started_at timestamptz NOT NULL DEFAULT now(),
      heartbeat_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz,
      PRIMARY KEY (job, slot)
    )`);
  await runner.query(
    `CREATE INDEX job_runs_running ON ${schema}.job_runs (job) WHERE finished_at IS NULL`,
  );
}
