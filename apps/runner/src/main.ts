import 'reflect-metadata';

import { AUDIT_RESPONSE_SCHEMAS, AuditEnv, AuditModule } from '@agp/audit';
import { AuthModule, authOptionsFromEnv } from '@agp/auth';
import { loadEnv, loadEnvOrExit } from '@agp/config';
import { EmbeddedPostgres, startEmbeddedPostgres } from '@agp/database';
import { createHttpApp } from '@agp/http';
import { AsyncApiModule, EventBusModule } from '@agp/messaging';
import { RELAY_RESPONSE_SCHEMAS, RelayEnv, RelayModule, embeddedSecretsKey } from '@agp/relay';
import {
  TENANT_AUTH_RESPONSE_SCHEMAS,
  TenantAuthEnv,
  TenantAuthModule,
  bootstrapDefaultTenant,
} from '@agp/tenant-auth';

import { RunnerEnv } from './config/runner.env';
import { consoleDirectory, serveConsole } from './console/serve-console';

/** D2: the three services in one Nest application, so no proxy hop is needed. */
async function main(): Promise<void> {
  // Unset, the public address follows PORT, so tokens and bootstrap.json name the real port.
  const { PORT } = loadEnvOrExit(RunnerEnv);
  const source = {
    ...process.env,
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL || `http://localhost:${PORT}`,
  };
  const env = loadEnvOrExit(RunnerEnv, source);
  let embedded: EmbeddedPostgres | undefined;
  const databaseUrl =
    env.DATABASE_URL ?? (embedded = await startEmbeddedPostgres(env.DATA_DIR)).url;
  const shared = { ...source, DATABASE_URL: databaseUrl, PORT: String(env.PORT) };
  // D37: the embedded default reaches private MCP hosts and keeps its sealing key in DATA_DIR.
  const relayEnv = loadEnv(RelayEnv, { EGRESS_ALLOW_PRIVATE: 'true', ...shared });
  const secretsKey = relayEnv.SECRETS_KEY ?? embeddedSecretsKey(env.DATA_DIR);

  const consoleDir = consoleDirectory(env.CONSOLE_DIR);
  const app = await createHttpApp({
    service: 'agp',
    openApi: {
      title: 'Agent Governance Platform',
      ui: true,
      responses: [TENANT_AUTH_RESPONSE_SCHEMAS, RELAY_RESPONSE_SCHEMAS, AUDIT_RESPONSE_SCHEMAS],
    },
    logLevel: env.LOG_LEVEL,
    trustProxyHops: env.TRUST_PROXY_HOPS,
    configureFastify: (adapter) => {
      if (consoleDir) {
        serveConsole(adapter.getInstance(), consoleDir);
      }
    },
    imports: [
      AuthModule.forRoot(
        authOptionsFromEnv(
          env,
          `http://127.0.0.1:${env.PORT}/tenant-auth/v1/.well-known/jwks.json`,
        ),
      ),
      EventBusModule.forRoot({ natsUrl: env.NATS_URL, prefix: env.NATS_PREFIX }),
      TenantAuthModule.forRoot({ ...loadEnv(TenantAuthEnv, shared), DATABASE_URL: databaseUrl }),
      RelayModule.forRoot({ ...relayEnv, SECRETS_KEY: secretsKey, DATABASE_URL: databaseUrl }),
      AuditModule.forRoot({ ...loadEnv(AuditEnv, shared), DATABASE_URL: databaseUrl }),
      AsyncApiModule,
    ],
  });
  if (embedded) {
    const database = embedded;
    app
      .getHttpAdapter()
      .getInstance()
      .addHook('onClose', async () => database.stop());
  }
  // D11: first start creates the `default` tenant and writes DATA_DIR/bootstrap.json (0600).
  await bootstrapDefaultTenant(app, env);
  await app.listen({ port: env.PORT, host: '0.0.0.0' });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `agp: failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
