import 'reflect-metadata';

import { TestTokenIssuer } from '@agp/testing';

import { startAudit } from '../test/support/audit-test-app';

/**
 * The export side of the benchmark: one audit process that serves HTTP and nothing else, so its
 * peak RSS (VmHWM) is the export's. Prints `ready <port> <tenant token>`.
 */
async function main(): Promise<void> {
  const issuer = await TestTokenIssuer.create();
  const app = await startAudit({ databaseUrl: process.env.BENCH_DATABASE_URL ?? '', issuer });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const token = await issuer.token({
    tenantId: process.env.BENCH_TENANT_ID ?? '',
    perms: ['AUDIT:READ'],
  });
  process.stdout.write(`ready ${port} ${token}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `export server failed: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
