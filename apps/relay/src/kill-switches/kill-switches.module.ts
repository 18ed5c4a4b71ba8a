import { Module } from '@nestjs/common';

import { KillSwitchesController } from './kill-switches.controller';
import { KillSwitchesRepository } from './kill-switches.repository';
import { KillSwitchesService } from './kill-switches.service';

/** D35, T2, T50: traffic paths hear changes on the broadcast, not by a call. */
@Module({
  controllers: [KillSwitchesController],
  providers: [KillSwitchesRepository, KillSwitchesService],
})
export class KillSwitchesModule {}
