import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';

import { AUDIT_DATABASE } from '../database/tokens';
import { frameOf } from './dashboard-window';
import { DashboardQueryDto } from './dto/dashboard-query.dto';
import { DashboardRepository } from './dashboard.repository';
import { Dashboard, TopLists } from './dashboard.types';

/** `GET /audit/v1/dashboard` (issue 5, item 7). */
@Injectable()
export class DashboardService {
  constructor(
    @Inject(DashboardRepository) private readonly repository: DashboardRepository,
    @Inject(AUDIT_DATABASE) private readonly database: Database,
  ) {}

  async dashboard(
    tenantId: string,
    query: DashboardQueryDto,
    now = new Date(),
  ): Promise<Dashboard> {
    const frame = frameOf(query.window, now);
    const { from, to } = frame;
    return this.database.inTenant(tenantId, async (tx) => {
      const byAction = await this.repository.countBy(tx, tenantId, 'action', from, to);
      const byEventType = await this.repository.countBy(tx, tenantId, 'event_type', from, to);
      const byProtocol = await this.repository.countBy(tx, tenantId, 'protocol', from, to);
      const counts = await this.repository.series(tx, tenantId, from, to, frame.bucketSeconds);
      const series = frame.buckets.map((at) => ({
        at: at.toISOString(),
        total: 0,
        blocks: 0,
        ...counts.get(at.getTime()),
      }));
      return {
        window: query.window,
        from: from.toISOString(),
        to: to.toISOString(),
        bucketSeconds: frame.bucketSeconds,
        total: series.reduce((sum, point) => sum + point.total, 0),
        byAction,
        byEventType,
        byProtocol,
        topAgents: await this.topOf(tx, tenantId, 'AGENT', from, to),
        topUsers: await this.topOf(tx, tenantId, 'USER', from, to),
        topMcpServers: await this.topOf(tx, tenantId, 'MCP_SERVER', from, to),
        topPolicies: {
          byVolume: await this.repository.topPolicies(tx, tenantId, from, to, 'events'),
          byBlocks: await this.repository.topPolicies(tx, tenantId, from, to, 'blocks'),
        },
        pendingHitlRequests: await this.repository.pendingHitlRequests(tx, tenantId),
        series,
      };
    });
  }

  private async topOf(
    tx: Tx,
    tenantId: string,
    partyType: string,
    from: Date,
    to: Date,
  ): Promise<TopLists> {
    return {
      byVolume: await this.repository.top(tx, tenantId, partyType, from, to, 'events'),
      byBlocks: await this.repository.top(tx, tenantId, partyType, from, to, 'blocks'),
    };
  }
}
