/** D60: what a budget counts over. */
export const BUDGET_SCOPES = ['TENANT', 'AGENT', 'LLM_GATEWAY', 'SUBSCRIPTION'] as const;
export type BudgetScope = (typeof BUDGET_SCOPES)[number];
export const BUDGET_PERIODS = ['DAY', 'MONTH', 'ROLLING_24H'] as const;
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];
export const BUDGET_UNITS = ['USD', 'TOKENS'] as const;
export type BudgetUnit = (typeof BUDGET_UNITS)[number];
/** SP1: the platform counts money in US dollars (D60: USDC 1:1). */
export const CURRENCIES = ['USD'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** D42: the kinds an ADMIN_CHANGE of spend settings names. */
export const MODEL_PRICE_KIND = 'MODEL_PRICE';
export const BUDGET_KIND = 'BUDGET';

/** One row of `relay.model_prices`; prices are decimal USD strings per million tokens. */
export interface ModelPrice {
  id: string;
  tenantId: string;
  model: string;
  currency: Currency;
  inputPerMillion: string;
  outputPerMillion: string;
  cachedInputPerMillion: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One row of `relay.budgets`; limits are decimal strings (USD) or whole numbers (TOKENS). */
export interface Budget {
  id: string;
  tenantId: string;
  scope: BudgetScope;
  targetId: string | null;
  period: BudgetPeriod;
  unit: BudgetUnit;
  softLimit: string | null;
  hardLimit: string | null;
  softAlertedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** SP12: what a ledger entry is for. */
export type SpendKind = 'LLM' | 'PAYMENT';

/** Who a payment went to: the hop's sink (an agent, an MCP server, a tool). */
export interface Payee {
  type: string;
  id: string;
  label?: string;
}

/** One line of the ledger (SP12), an LLM call's cost or a settled payment. */
export interface SpendEntry {
  id: string;
  tenantId: string;
  kind: SpendKind;
  occurredAt: string;
  agentId: string | null;
  subscriptionId: string | null;
  llmGatewayId: string | null;
  llmProviderId: string | null;
  model: string | null;
  payee: Payee | null;
  /** Null: an LLM call of a model without a price (SP4). */
  amountUsd: string | null;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  totalTokens: number;
  correlationId: string;
  eventId: string | null;
  details: Record<string, unknown>;
}

/** A call's hold on its budgets until it settles (SP8). */
export interface Reservation {
  id: string;
  tenantId: string;
  /** The budgets it was checked against (their soft limits are re-read when it settles). */
  budgetIds: string[];
}
