import { Inject, Injectable } from '@nestjs/common';
import { Database, Row } from '@agp/database';
import { Page, PageQueryDto, pageOf, pageOffset } from '@agp/http';

import { RELAY_DATABASE } from '../../database/tokens';
import { ReachableAgent } from './reachable-agent';

/** traffic.md T61: the agents of a person's USER_TO_AGENT subscriptions, by name. */
@Injectable()
export class ReachableAgentsRepository {
  constructor(@Inject(RELAY_DATABASE) private readonly database: Database) {}

  list(tenantId: string, userId: string, query: PageQueryDto): Promise<Page<ReachableAgent>> {
    return this.database.inTenant(tenantId, async (tx) => {
      const rows: Row[] = await tx.query(
        `SELECT a.id, a.name, a.description, sub.id AS subscription_id,
                count(*) OVER () AS total
           FROM relay.subscriptions sub
           JOIN relay.agents a ON a.tenant_id = sub.tenant_id AND a.id = sub.target_id
          WHERE sub.tenant_id = $1 AND sub.kind = 'USER_TO_AGENT' AND sub.source_id = $2
            AND a.status <> 'DELETED'
          ORDER BY a.name, a.id LIMIT $3 OFFSET $4`,
        [tenantId, userId, query.pageSize, pageOffset(query)],
      );
      const items = rows.map((row) => ({
        id: String(row.id),
        name: String(row.name),
        ...(typeof row.description === 'string' ? { description: row.description } : {}),
        relayPath: `/relay/human/${String(row.id)}`,
        subscriptionId: String(row.subscription_id),
      }));
      return pageOf(items, rows[0] ? Number(rows[0].total) : 0, query);
    });
  }
}
