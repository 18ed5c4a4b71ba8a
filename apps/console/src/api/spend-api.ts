import type { BudgetResponse, SpendResponse } from './contracts/relay';
import { accessToken } from '../auth/session';
import { Page, api, query } from './client';

export type SpendGroup = SpendResponse['groupBy'][number];

/** The ledger's filters (docs/decisions/spend.md SP13); dates as the inputs hold them. */
export interface SpendFilters {
  from?: string;
  to?: string;
  agentId?: string;
  kind?: 'LLM' | 'PAYMENT';
}

/** D48: the ledger and the budgets, read with BILLING:READ. */
export const spendApi = {
  spend: (filters: SpendFilters, groupBy: SpendGroup[]) =>
    api<SpendResponse>(`/relay/v1/spend${query({ ...filters, groupBy: groupBy.join(',') })}`),
  budgets: () => api<Page<BudgetResponse>>(`/relay/v1/budgets${query({ pageSize: 100 })}`),
};

/** SP14: the ledger's lines as CSV, fetched with the token, saved as a file. */
export async function downloadSpend(filters: SpendFilters): Promise<void> {
  const response = await fetch(`/relay/v1/spend/export${query({ ...filters })}`, {
    headers: { authorization: `Bearer ${await accessToken()}` },
  });
  if (!response.ok) {
    throw new Error(`The export failed (${response.status}).`);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `spend-${new Date().toISOString().slice(0, 10)}.csv`;
  link.click();
  URL.revokeObjectURL(url);
}
