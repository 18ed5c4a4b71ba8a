import { AreaChart, BarChart } from '@mantine/charts';

import type { CountBy, Dashboard, TopEntry } from '../api/contracts/audit';

/** The audit's volume and blocks over the window, one point per bucket. */
export function VolumeChart({ series }: { series: Dashboard['series'] }) {
  return (
    <AreaChart
      h={220}
      data={series.map((point) => ({ ...point, at: new Date(point.at).toLocaleString() }))}
      dataKey="at"
      series={[
        { name: 'total', label: 'All events', color: 'blue.8' },
        { name: 'blocks', label: 'Blocked', color: 'red.8' },
      ]}
      withLegend
    />
  );
}

/** How many events each action had over the window. */
export function ActionsChart({ byAction }: { byAction: CountBy[] }) {
  return (
    <BarChart
      h={220}
      data={byAction.map((entry) => ({ action: entry.key, count: entry.count }))}
      dataKey="action"
      series={[{ name: 'count', label: 'Events', color: 'blue.8' }]}
    />
  );
}

/** The policy groups whose own verdict blocked the most hops over the window (audit A16). */
export function PoliciesChart({ rows }: { rows: TopEntry[] }) {
  return (
    <BarChart
      h={Math.max(120, 40 + rows.length * 32)}
      data={rows.map((row) => ({ policy: row.label ?? row.id, blocks: row.blocks }))}
      dataKey="policy"
      orientation="vertical"
      xAxisProps={{ allowDecimals: false }}
      yAxisProps={{ width: 180 }}
      series={[{ name: 'blocks', label: 'Blocked hops', color: 'red.8' }]}
    />
  );
}
