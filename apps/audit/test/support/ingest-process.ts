import 'reflect-metadata';

import { TestTokenIssuer } from '@agp/testing';

import { startAudit } from './audit-test-app';

/**
 * One audit replica in a process of its own, so the fault test can kill it (SIGKILL) mid-batch.
 * Run with `node -r scripts/register-ts.js`; configured by AUDIT_FAULT_* variables.
 */
async function main(): Promise<void> {
  const databaseUrl = process.env.AUDIT_FAULT_DATABASE_URL ?? '';
  const natsUrl = process.env.AUDIT_FAULT_NATS_URL ?? '';
  const prefix = process.env.AUDIT_FAULT_PREFIX ?? '';
  await startAudit({
    databaseUrl,
    natsUrl,
    prefix,
    issuer: await TestTokenIssuer.create(),
    env: {
      AUDIT_INGEST_BATCH: process.env.AUDIT_INGEST_BATCH ?? '500',
      ...(process.env.AUDIT_INGEST_CONCURRENCY
        ? { AUDIT_INGEST_CONCURRENCY: process.env.AUDIT_INGEST_CONCURRENCY }
        : {}),
    },
  });
  process.stdout.write('ready\n');
  // SIGTERM: the shutdown hooks of createHttpApp close the app (consumers first, D5).
}

main().catch((error: unknown) => {
  process.stderr.write(
    `ingest process failed: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
