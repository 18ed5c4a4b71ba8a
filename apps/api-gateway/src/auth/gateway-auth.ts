import {
  RevocationStore,
  TokenVerifier,
  audiencesFor,
  authOptionsFromEnv,
  authenticate,
  createRevocationStore,
  revocationCheck,
} from '@agp/auth';
import { stripTrailingSlash } from '@agp/config';
import { sendProblem } from '@agp/http';
import { FastifyInstance } from 'fastify';
import { Logger } from 'pino';

import { GatewayEnv } from '../config/gateway.env';
import { needsToken } from './public-routes';

export function registerGatewayAuth(
  fastify: FastifyInstance,
  env: GatewayEnv,
  logger: Logger,
): void {
  const options = authOptionsFromEnv(
    env,
    `${stripTrailingSlash(env.TENANT_AUTH_URL)}/tenant-auth/v1/.well-known/jwks.json`,
  );
  const verifier = new TokenVerifier(options);
  const audiences = audiencesFor(options.apiAudience);
  const storeReady: Promise<RevocationStore> = createRevocationStore(options.revocations);
  // A start-up failure surfaces at ready(); the hook below never sees an unhandled rejection.
  storeReady.catch(() => undefined);
  let check: ReturnType<typeof revocationCheck> | undefined;

  fastify.addHook('onReady', async () => {
    check = revocationCheck(await storeReady);
  });
  fastify.addHook('onClose', async () => {
    await (await storeReady).close();
  });
  fastify.addHook('onRequest', async (request, reply) => {
    if (!needsToken(request.url)) {
      return;
    }
    try {
      await authenticate(verifier, audiences, request, check ?? revocationCheck(await storeReady));
    } catch (error) {
      sendProblem(logger, error, request, reply);
      return reply;
    }
  });
}
