import { Injectable } from '@nestjs/common';
import { Row, Tx, iso, queryNamed, str } from '@agp/database';

import { SpendSubject } from './budgets.repository';
import { Payee, SpendEntry, SpendKind } from './spend.types';
import { trimDecimal } from './usd';

const ENTRIES = 'relay.spend_entries';
const RESERVATIONS = 'relay.budget_reservations';

/** SP12: the fields of an LLM call's ledger line (its LLM_GATEWAY_CALL's). */
export interface LlmSpend {
  id: string;
  subject: SpendSubject;
  llmProviderId: string;
  model: string;
  /** Null when the model has no price (SP4). */
  amountUsd: string | null;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  totalTokens: number;
  correlationId: string;
  eventId: string;
  details: Record<string, unknown>;
}

/** SP12: a settled x402 payment, as X402_PAYMENT_SUCCESS's `details.payment` says it (D60). */
export interface PaymentSpend {
  id: string;
  subject: SpendSubject;
  payee: Payee;
  payment: {
    amountUsd: string;
    amountAtomic: string;
    asset: string;
    network: string;
    payTo: string;
    scheme: string;
    description?: string;
  };
  correlationId: string;
  eventId: string;
}

/** SP13: the dimensions a ledger query groups by, each a fixed expression. */
export const SPEND_GROUPS = {
  agent: 'agent_id::text',
  gateway: 'llm_gateway_id::text',
  model: 'model',
  payee: "payee_type || ':' || payee_id",
  day: "to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
} as const;
export type SpendGroup = keyof typeof SPEND_GROUPS;

export interface SpendFilter {
  from: string;
  to: string;
  agentId?: string;
  llmGatewayId?: string;
  kind?: SpendKind;
}

/** One group of a ledger query; amounts are numeric text, exact. */
export interface SpendRow {
  key: Partial<Record<SpendGroup, string | null>>;
  payeeLabel: string | null;
  llmUsd: string;
  paymentsUsd: string;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  totalTokens: number;
  llmCalls: number;
  unpricedCalls: number;
  payments: number;
}

/** D48, SP12: the ledger and the reservations held against budgets; every method takes the tenant. */
@Injectable()
export class SpendLedgerRepository {
  async insertLlm(tx: Tx, s: LlmSpend): Promise<void> {
    // F53: one line per call, so parsed once per connection.
    await queryNamed(
      tx,
      `INSERT INTO ${ENTRIES} (id, tenant_id, kind, agent_id, subscription_id, llm_gateway_id,
         llm_provider_id, model, amount_usd, prompt_tokens, completion_tokens, cached_tokens,
         total_tokens, correlation_id, event_id, details)
       VALUES ($1, $2, 'LLM', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
      [
        s.id,
        s.subject.tenantId,
        s.subject.agentId,
        s.subject.subscriptionId ?? null,
        s.subject.llmGatewayId ?? null,
        s.llmProviderId,
        s.model,
        s.amountUsd,
        s.promptTokens,
        s.completionTokens,
        s.cachedTokens,
        s.totalTokens,
        s.correlationId,
        s.eventId,
        JSON.stringify(s.details),
      ],
    );
  }

  async insertPayment(tx: Tx, s: PaymentSpend): Promise<void> {
    const { amountUsd, ...details } = s.payment;
    await tx.query(
      `INSERT INTO ${ENTRIES} (id, tenant_id, kind, agent_id, subscription_id, llm_gateway_id,
         payee_type, payee_id, payee_label, amount_usd, correlation_id, event_id, details)
       VALUES ($1, $2, 'PAYMENT', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        s.id,
        s.subject.tenantId,
        s.subject.agentId,
        s.subject.subscriptionId ?? null,
        // SP18: a payment on the LLM path is the gateway's spend too.
        s.subject.llmGatewayId ?? null,
        s.payee.type,
        s.payee.id,
        s.payee.label ?? null,
        amountUsd,
        s.correlationId,
        s.eventId,
        JSON.stringify(details),
      ],
    );
  }

  async reserve(
    tx: Tx,
    id: string,
    subject: SpendSubject,
    charge: { amountUsd: string; tokens: string },
    ttlSeconds: number,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO ${RESERVATIONS} (id, tenant_id, agent_id, subscription_id, llm_gateway_id,
         amount_usd, tokens, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))`,
      [
        id,
        subject.tenantId,
        subject.agentId,
        subject.subscriptionId ?? null,
        subject.llmGatewayId ?? null,
        charge.amountUsd,
        charge.tokens,
        ttlSeconds,
      ],
    );
  }

  /** SP8: a settled or abandoned call's reservation; expired ones go with it. */
  async release(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(
      `DELETE FROM ${RESERVATIONS} WHERE tenant_id = $1 AND (id = $2 OR expires_at < now())`,
      [tenantId, id],
    );
  }

  /** SP13: the ledger between `from` and `to`, grouped; no groups is one row of totals. */
  async grouped(
    tx: Tx,
    tenantId: string,
    groups: SpendGroup[],
    filter: SpendFilter,
    limit: number,
  ): Promise<SpendRow[]> {
    const keys = groups.map((g) => `${SPEND_GROUPS[g]} AS "${g}"`);
    const label = groups.includes('payee') ? 'max(payee_label)' : 'NULL';
    const rows: Row[] = await tx.query(
      `SELECT ${[...keys, `${label} AS payee_label`].join(', ')},
         coalesce(sum(amount_usd) FILTER (WHERE kind = 'LLM'), 0)::text AS llm_usd,
         coalesce(sum(amount_usd) FILTER (WHERE kind = 'PAYMENT'), 0)::text AS payments_usd,
         coalesce(sum(prompt_tokens), 0)::text AS prompt_tokens,
         coalesce(sum(completion_tokens), 0)::text AS completion_tokens,
         coalesce(sum(cached_tokens), 0)::text AS cached_tokens,
         coalesce(sum(total_tokens), 0)::text AS total_tokens,
         count(*) FILTER (WHERE kind = 'LLM')::int AS llm_calls,
         count(*) FILTER (WHERE kind = 'LLM' AND amount_usd IS NULL)::int AS unpriced_calls,
         count(*) FILTER (WHERE kind = 'PAYMENT')::int AS payments
       FROM ${ENTRIES} WHERE ${WHERE}
       ${groups.length > 0 ? `GROUP BY ${groups.map((_, i) => i + 1).join(', ')}` : ''}
       ${groups.length > 0 ? `ORDER BY ${groups.map((_, i) => `${i + 1} NULLS FIRST`).join(', ')}` : ''}
       LIMIT $7`,
      [...filterParams(tenantId, filter), limit],
    );
    return rows.map((row) => ({
      key: Object.fromEntries(groups.map((g) => [g, str(row[g]) ?? null])),
      payeeLabel: str(row.payee_label) ?? null,
      llmUsd: String(row.llm_usd),
      paymentsUsd: String(row.payments_usd),
      promptTokens: Number(row.prompt_tokens),
      completionTokens: Number(row.completion_tokens),
      cachedTokens: Number(row.cached_tokens),
      totalTokens: Number(row.total_tokens),
      llmCalls: Number(row.llm_calls),
      unpricedCalls: Number(row.unpriced_calls),
      payments: Number(row.payments),
    }));
  }

  /** SP14: the ledger's lines, oldest first, for the CSV export. */
  async entries(
    tx: Tx,
    tenantId: string,
    filter: SpendFilter,
    limit: number,
  ): Promise<SpendEntry[]> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${ENTRIES} WHERE ${WHERE} ORDER BY occurred_at, id LIMIT $7`,
      [...filterParams(tenantId, filter), limit],
    );
    return rows.map(toEntry);
  }
}

const WHERE = `tenant_id = $1 AND occurred_at >= $2 AND occurred_at < $3
  AND ($4::uuid IS NULL OR agent_id = $4) AND ($5::uuid IS NULL OR llm_gateway_id = $5)
  AND ($6::text IS NULL OR kind = $6)`;

function filterParams(tenantId: string, f: SpendFilter): unknown[] {
  return [tenantId, f.from, f.to, f.agentId ?? null, f.llmGatewayId ?? null, f.kind ?? null];
}

function toEntry(row: Row): SpendEntry {
  const text = (v: unknown): string | null => str(v) ?? null;
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    kind: String(row.kind) as SpendKind,
    occurredAt: iso(row.occurred_at)!,
    agentId: text(row.agent_id),
    subscriptionId: text(row.subscription_id),
    llmGatewayId: text(row.llm_gateway_id),
    llmProviderId: text(row.llm_provider_id),
    model: text(row.model),
    payee:
      row.payee_id === null
        ? null
        : {
            type: String(row.payee_type),
            id: text(row.payee_id)!,
            ...(row.payee_label !== null ? { label: text(row.payee_label)! } : {}),
          },
    amountUsd: row.amount_usd === null ? null : trimDecimal(row.amount_usd),
    promptTokens: Number(row.prompt_tokens),
    completionTokens: Number(row.completion_tokens),
    cachedTokens: Number(row.cached_tokens),
    totalTokens: Number(row.total_tokens),
    correlationId: String(row.correlation_id),
    eventId: text(row.event_id),
    details: (row.details ?? {}) as Record<string, unknown>,
  };
}
