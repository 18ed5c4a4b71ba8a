import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { AUDIT_DATABASE } from '../database/tokens';
import { Checkpoint } from './checkpoint.types';
import { CheckpointsRepository } from './checkpoints.repository';
import { ListCheckpointsQueryDto } from './dto/list-checkpoints-query.dto';
import { IntegrityErrorCode, IntegrityException } from './integrity.exception';

export interface CheckpointPage {
  items: Checkpoint[];
  nextCursor: string | null;
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [createdAt, id] = JSON.parse(
      Buffer.from(cursor, 'base64url').toString('utf8'),
    ) as unknown[];
    if (
      typeof createdAt === 'string' &&
      typeof id === 'string' &&
      !Number.isNaN(Date.parse(createdAt)) &&
      /^[0-9a-f-]{36}$/.test(id)
    ) {
      return { createdAt: new Date(createdAt), id };
    }
  } catch {
    // falls through to the exception below
  }
  throw new IntegrityException(
    IntegrityErrorCode.INVALID_CURSOR,
    'cursor is not one this API gave out',
  );
}

@Injectable()
export class CheckpointsQueryService {
  constructor(
    @Inject(CheckpointsRepository) private readonly repository: CheckpointsRepository,
    @Inject(AUDIT_DATABASE) private readonly database: Database,
  ) {}

  async list(tenantId: string, query: ListCheckpointsQueryDto): Promise<CheckpointPage> {
    const rows = await this.database.inTenant(tenantId, (tx) =>
      this.repository.list(tx, tenantId, {
        from: query.from ? new Date(query.from) : undefined,
        to: query.to ? new Date(query.to) : undefined,
        limit: query.pageSize + 1,
        after: query.cursor ? decodeCursor(query.cursor) : undefined,
      }),
    );
    const items = rows.slice(0, query.pageSize);
    const last = items[items.length - 1];
    return {
      items,
      nextCursor:
        rows.length > query.pageSize && last
          ? Buffer.from(JSON.stringify([last.createdAt, last.id])).toString('base64url')
          : null,
    };
  }
}
