import { Module } from '@nestjs/common';

import { ExportController } from './export.controller';
import { ExportRepository } from './export.repository';
import { ExportService } from './export.service';

@Module({
  controllers: [ExportController],
  providers: [ExportRepository, ExportService],
})
export class ExportModule {}
