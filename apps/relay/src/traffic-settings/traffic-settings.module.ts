import { Module } from '@nestjs/common';

import { TrafficSettingsController } from './traffic-settings.controller';
import { TrafficSettingsService } from './traffic-settings.service';

@Module({
  controllers: [TrafficSettingsController],
  providers: [TrafficSettingsService],
})
export class TrafficSettingsModule {}
