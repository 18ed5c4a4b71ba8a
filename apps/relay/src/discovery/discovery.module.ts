import { Module } from '@nestjs/common';

import { DiscoveryController } from './discovery.controller';
import { DiscoveryRepository } from './discovery.repository';
import { DiscoveryService } from './discovery.service';

/** Issue 40: search over the index the migration's triggers keep (DS2); exports the search. */
@Module({
  controllers: [DiscoveryController],
  providers: [DiscoveryRepository, DiscoveryService],
  exports: [DiscoveryRepository],
})
export class DiscoveryModule {}
