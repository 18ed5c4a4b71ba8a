import { Module } from '@nestjs/common';

import { TrafficSettingsController } from './traffic-settings.controller';
import { TrafficSettingsRepository } from './traffic-settings.repository';
import { TrafficSettingsService } from './traffic-settings.service';

@Module({
  controllers: [TrafficSettingsController],
  providers: [TrafficSettingsService, TrafficSettingsRepository],
})
export class TrafficSettingsModule {}
