import { Module } from '@nestjs/common';

import { TrafficModule } from '../traffic/traffic.module';
import { TrafficSettingsController } from './traffic-settings.controller';
import { TrafficSettingsRepository } from './traffic-settings.repository';
import { TrafficSettingsService } from './traffic-settings.service';

@Module({
  imports: [TrafficModule],
  controllers: [TrafficSettingsController],
  providers: [TrafficSettingsService, TrafficSettingsRepository],
})
export class TrafficSettingsModule {}
