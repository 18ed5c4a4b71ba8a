import { Module } from '@nestjs/common';
import { AsyncApiModule } from '@agp/messaging';

/**
 * The gateway's own Nest module: health probes come from the shared core, the events' AsyncAPI
 * document from the messaging library; every other route is the proxy registered on fastify (D1).
 */
@Module({ imports: [AsyncApiModule] })
export class GatewayModule {}
