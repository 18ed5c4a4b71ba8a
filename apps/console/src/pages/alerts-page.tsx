import { Anchor, Group, Select, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ALERT_STATUSES, AlertStatus, SEVERITIES, Severity } from '@agp/contracts/enums';

import { platform } from '../api/platform';
import { SeverityBadge } from '../components/action-badge';
import { ErrorAlert } from '../components/error-alert';
import { ResourceTable } from '../components/resource-table';
import { When } from '../components/when';

/** D14: the alert list with its filters; each alert opens its detail and lifecycle actions. */
export function AlertsPage() {
  const [status, setStatus] = useState<AlertStatus | null>('OPEN');
  const [severity, setSeverity] = useState<Severity | null>(null);
  const alerts = useQuery({
    queryKey: ['alerts', status, severity],
    queryFn: () =>
      platform.alerts({ status: status ?? undefined, severity: severity ?? undefined }),
  });

  return (
    <Stack>
      <Title order={2}>Alerts</Title>
      <Group>
        <Select
          label="Status"
          data={ALERT_STATUSES}
          value={status}
          onChange={(v) => setStatus(v)}
          clearable
        />
        <Select
          label="Severity"
          data={SEVERITIES}
          value={severity}
          onChange={(v) => setSeverity(v)}
          clearable
        />
      </Group>
      <ErrorAlert error={alerts.error} />
      <ResourceTable
        rows={alerts.data?.items}
        empty="No alerts match these filters."
        nameOf={(a) => a.summary}
        columns={[
          { label: 'Severity', render: (a) => <SeverityBadge value={a.severity} /> },
          { label: 'Detector', render: (a) => a.detector ?? 'custom monitor' },
          {
            label: 'Summary',
            render: (a) => (
              <Anchor component={Link} to={`/alerts/${a.id}`}>
                {a.summary}
              </Anchor>
            ),
          },
          { label: 'Status', render: (a) => a.status },
          { label: 'Detected', render: (a) => <When at={a.detectedAt} /> },
        ]}
      />
    </Stack>
  );
}
