import { BarChart } from '@mantine/charts';
import {
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import type { SpendFigures, SpendGroupResponse } from '../api/contracts/relay';
import { SpendFilters, SpendGroup, downloadSpend, spendApi } from '../api/spend-api';
import { ErrorAlert } from '../components/error-alert';

const GROUPS: Array<{ value: SpendGroup; label: string }> = [
  { value: 'agent', label: 'Agent' },
  { value: 'gateway', label: 'LLM gateway' },
  { value: 'model', label: 'Model' },
  { value: 'payee', label: 'Payee' },
];

/** A date input's day as the API's instant: `from` at the day's start, `to` at the next day's. */
function rangeOf(draft: { from: string; to: string }): SpendFilters {
  const day = (value: string, next = false): string | undefined => {
    if (!value) {
      return undefined;
    }
    const at = new Date(`${value}T00:00:00.000Z`);
    return new Date(at.getTime() + (next ? 86_400_000 : 0)).toISOString();
  };
  return { from: day(draft.from), to: day(draft.to, true) };
}

/** Amounts are exact decimal strings (SP2); a chart only draws them. */
const usd = (amount: string): string => `$${amount}`;

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder p="sm">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </Paper>
  );
}

function keyLabel(group: SpendGroupResponse, by: SpendGroup): string {
  if (by === 'payee') {
    return group.payeeLabel ?? group.key.payee ?? 'LLM calls (no payee)';
  }
  return group.key[by] ?? '—';
}

/** Issue 41 § 4: what agents spent, LLM costs and payments side by side, and the budgets. */
export function SpendPage() {
  const [draft, setDraft] = useState({ from: '', to: '' });
  const [filters, setFilters] = useState<SpendFilters>({});
  const [by, setBy] = useState<SpendGroup>('agent');
  const daily = useQuery({
    queryKey: ['spend', filters, 'day'],
    queryFn: () => spendApi.spend(filters, ['day']),
  });
  const grouped = useQuery({
    queryKey: ['spend', filters, by],
    queryFn: () => spendApi.spend(filters, [by]),
  });
  const budgets = useQuery({ queryKey: ['budgets'], queryFn: spendApi.budgets });
  const [exportError, setExportError] = useState<unknown>(null);
  const totals: SpendFigures | undefined = daily.data?.totals;

  return (
    <Stack>
      <Title order={2}>Spend</Title>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setFilters(rangeOf(draft));
        }}
      >
        <Group align="end">
          <TextInput
            label="From (day)"
            type="date"
            value={draft.from}
            onChange={(e) => setDraft((d) => ({ ...d, from: e.currentTarget.value }))}
          />
          <TextInput
            label="To (day)"
            type="date"
            value={draft.to}
            onChange={(e) => setDraft((d) => ({ ...d, to: e.currentTarget.value }))}
          />
          <Button type="submit">Show</Button>
          <Button
            variant="outline"
            onClick={() => {
              setExportError(null);
              downloadSpend(filters).catch(setExportError);
            }}
          >
            Export CSV
          </Button>
        </Group>
      </form>
      <ErrorAlert error={daily.error ?? grouped.error ?? exportError} />
      {totals ? (
        <SimpleGrid cols={{ base: 2, md: 4 }} aria-label="Totals">
          <Figure label="Total" value={usd(totals.amountUsd)} />
          <Figure label="LLM costs" value={usd(totals.llmUsd)} />
          <Figure label="Payments" value={usd(totals.paymentsUsd)} />
          <Figure
            label="Tokens"
            value={`${totals.totalTokens} (${totals.llmCalls} calls, ${totals.unpricedCalls} unpriced)`}
          />
        </SimpleGrid>
      ) : null}
      <Title order={3}>By day</Title>
      <BarChart
        h={220}
        type="stacked"
        data={(daily.data?.groups ?? []).map((g) => ({
          day: g.key.day ?? '',
          llm: Number(g.llmUsd),
          payments: Number(g.paymentsUsd),
        }))}
        dataKey="day"
        series={[
          { name: 'llm', label: 'LLM costs (USD)', color: 'blue.8' },
          { name: 'payments', label: 'Payments (USD)', color: 'teal.8' },
        ]}
        withLegend
      />
      <Group align="end">
        <Title order={3}>Breakdown</Title>
        <Select
          label="Group by"
          data={GROUPS}
          value={by}
          allowDeselect={false}
          onChange={(value) => value && setBy(value)}
        />
      </Group>
      <Table aria-label="Spend breakdown">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{GROUPS.find((g) => g.value === by)?.label}</Table.Th>
            <Table.Th>Total</Table.Th>
            <Table.Th>LLM costs</Table.Th>
            <Table.Th>Payments</Table.Th>
            <Table.Th>Tokens</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(grouped.data?.groups ?? []).map((group) => (
            <Table.Tr key={JSON.stringify(group.key)}>
              <Table.Td>{keyLabel(group, by)}</Table.Td>
              <Table.Td>{usd(group.amountUsd)}</Table.Td>
              <Table.Td>{usd(group.llmUsd)}</Table.Td>
              <Table.Td>
                {usd(group.paymentsUsd)} ({group.payments})
              </Table.Td>
              <Table.Td>{group.totalTokens}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Title order={3}>Budgets</Title>
      <ErrorAlert error={budgets.error} />
      <Table aria-label="Budgets">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Counts</Table.Th>
            <Table.Th>Window</Table.Th>
            <Table.Th>Used</Table.Th>
            <Table.Th>Soft limit</Table.Th>
            <Table.Th>Hard limit</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(budgets.data?.items ?? []).map((b) => (
            <Table.Tr key={b.id}>
              <Table.Td>{b.targetId ? `${b.scope} ${b.targetId}` : b.scope}</Table.Td>
              <Table.Td>{b.period}</Table.Td>
              <Table.Td>
                {b.used} {b.unit}
              </Table.Td>
              <Table.Td>{b.softLimit ?? '—'}</Table.Td>
              <Table.Td>{b.hardLimit ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
