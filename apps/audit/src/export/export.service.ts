import { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';

import { filterOf } from '../events/events.service';
import { CrlfRecords } from './crlf-records';
import { ExportEventsQueryDto } from './dto/export-events-query.dto';
import { ExportRepository } from './export.repository';

export interface CsvExport {
  fileName: string;
  body: Readable;
}

/** Operation 6 (D17): the caller's tenant's events as CSV, streamed. */
@Injectable()
export class ExportService {
  constructor(@Inject(ExportRepository) private readonly repository: ExportRepository) {}

  async export(
    tenantId: string,
    query: ExportEventsQueryDto,
    now = new Date(),
  ): Promise<CsvExport> {
    const rows = await this.repository.open(tenantId, filterOf(query));
    const body = rows.pipe(new CrlfRecords());
    rows.once('error', (error) => body.destroy(error));
    body.once('close', () => rows.destroy());
    return { fileName: `audit-events-${now.toISOString().replace(/[:.]/g, '-')}.csv`, body };
  }
}
