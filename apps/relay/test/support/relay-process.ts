import 'reflect-metadata';

import { TestTokenIssuer } from '@agp/testing';

import { startRelay } from './relay-test-app';

/**
 * One relay replica in a process of its own, so a test can kill it (SIGKILL) mid-call, as a crash
 * would. Run with `node -r ../audit/scripts/register-ts.js`; configured by RELAY_PROCESS_* (the
 * auth options are the test issuer's public ones: its JWKS, issuer and audience).
 */
async function main(): Promise<void> {
  const auth = JSON.parse(process.env.RELAY_PROCESS_AUTH ?? '{}') as ReturnType<
    TestTokenIssuer['authOptions']
  >;
  const app = await startRelay({
    databaseUrl: process.env.RELAY_PROCESS_DATABASE_URL ?? '',
    prefix: process.env.RELAY_PROCESS_PREFIX ?? '',
    issuer: { authOptions: () => auth } as TestTokenIssuer,
    egressAllowPrivate: true,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address() as { port: number };
  process.stdout.write(`ready ${address.port}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `relay process failed: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
