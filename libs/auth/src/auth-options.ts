import { CoreEnv, apiAudience, tokenIssuer } from '@agp/config';

import { AuthModuleOptions } from './auth.module';

/** AuthModule options from the core variables (D3, D6, D8); revocations ride on NATS when it is set. */
export function authOptionsFromEnv(env: CoreEnv, defaultJwksUrl?: string): AuthModuleOptions {
  const issuer = tokenIssuer(env);
  return {
    issuer,
    apiAudience: apiAudience(env),
    keys: { jwksUrl: env.AUTH_JWKS_URL ?? defaultJwksUrl ?? `${issuer}/.well-known/jwks.json` },
    revocations: { natsUrl: env.NATS_URL, prefix: env.NATS_PREFIX },
  };
}
