import 'reflect-metadata';

import { loadEnvOrExit } from '@agp/config';

import { GatewayEnv } from '../src/config/gateway.env';
import { createGatewayApp } from '../src/gateway-app';

/** The benchmark's baseline only: the same gateway with token verification left out. Never deployed. */
async function main(): Promise<void> {
  const env = loadEnvOrExit(GatewayEnv);
  const app = await createGatewayApp(env, { verifyTokens: false });
  await app.listen({ port: env.PORT, host: '127.0.0.1' });
}

void main();
