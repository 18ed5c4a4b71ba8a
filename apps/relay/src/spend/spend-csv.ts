import { SpendEntry } from './spend.types';

/** SP14: the export's columns, one ledger line per row; payments' fields beside LLM calls'. */
export const SPEND_CSV_COLUMNS = [
  'occurredAt',
  'kind',
  'amountUsd',
  'agentId',
  'subscriptionId',
  'llmGatewayId',
  'llmProviderId',
  'model',
  'promptTokens',
  'completionTokens',
  'cachedTokens',
  'totalTokens',
  'payeeType',
  'payeeId',
  'payeeLabel',
  'asset',
  'network',
  'payTo',
  'scheme',
  'amountAtomic',
  'description',
  'correlationId',
  'eventId',
] as const;

/** RFC 4180; a text cell a spreadsheet would run as a formula is prefixed with `'` (SP14). */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) {
    return '';
  }
  let text = typeof value === 'object' ? JSON.stringify(value) : `${value as string | number}`;
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^-?[0-9.]+$/.test(text)) {
    text = `'${text}`;
  }
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function rowOf(e: SpendEntry): unknown[] {
  const d = e.details;
  return [
    e.occurredAt,
    e.kind,
    e.amountUsd,
    e.agentId,
    e.subscriptionId,
    e.llmGatewayId,
    e.llmProviderId,
    e.model,
    e.promptTokens,
    e.completionTokens,
    e.cachedTokens,
    e.totalTokens,
    e.payee?.type,
    e.payee?.id,
    e.payee?.label,
    d.asset,
    d.network,
    d.payTo,
    d.scheme,
    d.amountAtomic,
    d.description,
    e.correlationId,
    e.eventId,
  ];
}

export function spendCsv(entries: SpendEntry[]): string {
  const lines = [
    SPEND_CSV_COLUMNS.join(','),
    ...entries.map((e) => rowOf(e).map(csvCell).join(',')),
  ];
  return `${lines.join('\r\n')}\r\n`;
}
