import { Module } from '@nestjs/common';

import { KillSwitchesController } from './kill-switches.controller';
import { KillSwitchesRepository } from './kill-switches.repository';
import { KillSwitchesService } from './kill-switches.service';

/**
 * D35: kill switches. Each change is announced by its lifecycle event; the traffic paths hear it
 * on the broadcast and read the engaged switches again (T2, T50).
 */
@Module({
  controllers: [KillSwitchesController],
  providers: [KillSwitchesRepository, KillSwitchesService],
})
export class KillSwitchesModule {}
