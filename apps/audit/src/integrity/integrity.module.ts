import { Module } from '@nestjs/common';

import { ChainWalkers } from './chain-walkers';
import { CheckpointsQueryService } from './checkpoints-query.service';
import { CheckpointsRepository } from './checkpoints.repository';
import { CheckpointsService } from './checkpoints.service';
import { IntegrityController } from './integrity.controller';
import { IntegrityRepository } from './integrity.repository';
import { IntegrityService } from './integrity.service';
import { SigningKeysRepository } from './signing-keys.repository';
import { SigningKeysService } from './signing-keys.service';

@Module({
  controllers: [IntegrityController],
  providers: [
    SigningKeysRepository,
    SigningKeysService,
    CheckpointsRepository,
    CheckpointsService,
    CheckpointsQueryService,
    IntegrityRepository,
    ChainWalkers,
    IntegrityService,
  ],
  exports: [CheckpointsRepository, CheckpointsService, IntegrityService],
})
export class IntegrityModule {}
