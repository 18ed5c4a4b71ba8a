import { Module } from '@nestjs/common';

import { TrafficModule } from '../traffic/traffic.module';
import { KillSwitchesController } from './kill-switches.controller';
import { KillSwitchesRepository } from './kill-switches.repository';
import { KillSwitchesService } from './kill-switches.service';

/** D35: kill switches; the traffic paths read the engaged ones through TrafficDirectory (T2). */
@Module({
  imports: [TrafficModule],
  controllers: [KillSwitchesController],
  providers: [KillSwitchesRepository, KillSwitchesService],
})
export class KillSwitchesModule {}
