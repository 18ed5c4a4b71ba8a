import { Module } from '@nestjs/common';
import { AsyncApiModule } from '@agp/messaging';

@Module({ imports: [AsyncApiModule] })
export class GatewayModule {}
