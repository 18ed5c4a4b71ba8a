import 'reflect-metadata';

import { loadEnvOrExit } from '@agp/config';

import { GatewayEnv } from './config/gateway.env';
import { createGatewayApp } from './gateway-app';

async function main(): Promise<void> {
  const env = loadEnvOrExit(GatewayEnv);
  const app = await createGatewayApp(env);
  await app.listen({ port: env.PORT, host: '0.0.0.0' });
}

void main();
