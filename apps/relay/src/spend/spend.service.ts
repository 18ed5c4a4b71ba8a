import { Inject, Injectable } from '@nestjs/common';
import { RequestContext } from '@agp/auth';
import { Database } from '@agp/database';
import { HttpProblem } from '@agp/http';

import { RELAY_DATABASE } from '../database/tokens';
import { SpendQueryDto } from './dto/spend-query.dto';
import { spendCsv } from './spend-csv';
import {
  SpendFilter,
  SpendGroup,
  SpendLedgerRepository,
  SpendRow,
} from './spend-ledger.repository';
import { formatPico, picoOfNumeric } from './usd';

/** SP13: at most this many groups in one answer (`truncated` says when there were more). */
export const MAX_SPEND_GROUPS = 1_000;
/** SP14: at most this many ledger lines in one export (`X-Agp-Truncated` says when more). */
export const MAX_EXPORT_ROWS = 100_000;
const DEFAULT_DAYS = 30;
const DAY_MS = 86_400_000;

/** What a group (or the whole range) spent; USD amounts are exact decimal strings (SP2). */
export interface SpendFigures {
  amountUsd: string;
  llmUsd: string;
  paymentsUsd: string;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  totalTokens: number;
  llmCalls: number;
  /** LLM calls of a model without a price: their tokens counted, their cost not (SP4). */
  unpricedCalls: number;
  payments: number;
}

export interface SpendGroupResponse extends SpendFigures {
  key: Partial<Record<SpendGroup, string | null>>;
  payeeLabel?: string;
}

export interface SpendResponse {
  from: string;
  to: string;
  currency: 'USD';
  groupBy: SpendGroup[];
  totals: SpendFigures;
  groups: SpendGroupResponse[];
  truncated: boolean;
}

/** D48, SP12–SP14: the ledger, LLM costs and payments side by side. */
@Injectable()
export class SpendService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly ledger: SpendLedgerRepository,
  ) {}

  async spend(ctx: RequestContext, query: SpendQueryDto): Promise<SpendResponse> {
    const filter = filterOf(query);
    const groupBy = groupsOf(query.groupBy);
    const { totals, rows } = await this.database.inTenant(ctx.tenantId, async (tx) => ({
      totals: await this.ledger.grouped(tx, ctx.tenantId, [], filter, 1),
      rows: groupBy.length
        ? await this.ledger.grouped(tx, ctx.tenantId, groupBy, filter, MAX_SPEND_GROUPS + 1)
        : [],
    }));
    return {
      from: filter.from,
      to: filter.to,
      currency: 'USD',
      groupBy,
      totals: figuresOf(totals[0]),
      groups: rows.slice(0, MAX_SPEND_GROUPS).map((row) => ({
        key: row.key,
        ...(row.payeeLabel !== null ? { payeeLabel: row.payeeLabel } : {}),
        ...figuresOf(row),
      })),
      truncated: rows.length > MAX_SPEND_GROUPS,
    };
  }

  async export(
    ctx: RequestContext,
    query: SpendQueryDto,
  ): Promise<{ fileName: string; body: string; truncated: boolean }> {
    const filter = filterOf(query);
    const entries = await this.database.inTenant(ctx.tenantId, (tx) =>
      this.ledger.entries(tx, ctx.tenantId, filter, MAX_EXPORT_ROWS + 1),
    );
    const day = (iso: string): string => iso.slice(0, 10);
    return {
      fileName: `spend-${day(filter.from)}-${day(filter.to)}.csv`,
      body: spendCsv(entries.slice(0, MAX_EXPORT_ROWS)),
      truncated: entries.length > MAX_EXPORT_ROWS,
    };
  }
}

function filterOf(query: SpendQueryDto): SpendFilter {
  const to = query.to ? new Date(query.to) : new Date();
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - DEFAULT_DAYS * DAY_MS);
  if (from.getTime() >= to.getTime()) {
    throw HttpProblem.validation([{ field: 'from', message: 'from must be before to' }]);
  }
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    ...(query.agentId ? { agentId: query.agentId } : {}),
    ...(query.llmGatewayId ? { llmGatewayId: query.llmGatewayId } : {}),
    ...(query.kind ? { kind: query.kind } : {}),
  };
}

function groupsOf(groupBy: string | undefined): SpendGroup[] {
  const groups = (groupBy ? groupBy.split(',') : []) as SpendGroup[];
  if (new Set(groups).size !== groups.length) {
    throw HttpProblem.validation([
      { field: 'groupBy', message: 'groupBy names a dimension twice' },
    ]);
  }
  return groups;
}

function figuresOf(row: SpendRow | undefined): SpendFigures {
  const llm = picoOfNumeric(row?.llmUsd ?? '0');
  const payments = picoOfNumeric(row?.paymentsUsd ?? '0');
  return {
    amountUsd: formatPico(llm + payments),
    llmUsd: formatPico(llm),
    paymentsUsd: formatPico(payments),
    promptTokens: row?.promptTokens ?? 0,
    completionTokens: row?.completionTokens ?? 0,
    cachedTokens: row?.cachedTokens ?? 0,
    totalTokens: row?.totalTokens ?? 0,
    llmCalls: row?.llmCalls ?? 0,
    unpricedCalls: row?.unpricedCalls ?? 0,
    payments: row?.payments ?? 0,
  };
}
