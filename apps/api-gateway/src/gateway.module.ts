import { Module } from '@nestjs/common';

/**
 * The gateway's own Nest module: health probes come from the shared core; every other route is
 * the proxy registered on fastify (D1). Token verification (D8) is added here by issue 4.
 */
@Module({})
export class GatewayModule {}
