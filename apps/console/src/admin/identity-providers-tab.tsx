import { Badge, Button, Card, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import type { IdentityProviderResponseDto } from '../api/contracts/tenant-auth';
import { admin } from '../api/admin-api';
import { useAction } from '../api/use-action';
import { SUCCESS_COLOR } from '../components/action-badge';
import { ErrorAlert } from '../components/error-alert';
import { When } from '../components/when';
import { useCan } from '../layout/permissions';
import { EditIdentityProviderDialog } from './edit-identity-provider-dialog';
import { IdentityProviderForm } from './identity-provider-form';

/** Operation 5 and D26: the tenant's providers, each e-mail domain verified by a DNS TXT record. */
export function IdentityProvidersTab() {
  const mayWrite = useCan('IDENTITY_PROVIDERS', 'WRITE');
  const mayDelete = useCan('IDENTITY_PROVIDERS', 'DELETE');
  const [editing, setEditing] = useState<IdentityProviderResponseDto | null>(null);
  const providers = useQuery({
    queryKey: ['identity-providers'],
    queryFn: admin.identityProviders,
  });
  const remove = useAction(
    (id: string) => admin.deleteIdentityProvider(id),
    ['identity-providers'],
  );

  return (
    <Stack>
      <ErrorAlert error={providers.error ?? remove.error} />
      {providers.data?.length === 0 ? <Text c="dimmed">No identity provider yet.</Text> : null}
      {providers.data?.map((p) => (
        <Card key={p.id} withBorder>
          <Stack gap="xs">
            <Group justify="space-between">
              <Title order={3} size="h4">
                {p.displayName} ({p.alias})
              </Title>
              <Group gap="xs">
                {mayWrite ? (
                  <Button
                    size="xs"
                    variant="default"
                    aria-label={`Edit ${p.displayName}`}
                    onClick={() => setEditing(p)}
                  >
                    Edit
                  </Button>
                ) : null}
                {mayDelete ? (
                  <Button
                    size="xs"
                    variant="default"
                    aria-label={`Delete ${p.displayName}`}
                    onClick={() => remove.mutate(p.id)}
                  >
                    Delete
                  </Button>
                ) : null}
              </Group>
            </Group>
            <Text size="sm">
              {p.config.type} · client {p.config.clientId} · {p.enabled ? 'enabled' : 'disabled'}
              {p.config.issuer ? ` · issuer ${p.config.issuer}` : ''}
            </Text>
            <Text size="sm">
              Redirect URI to register at the provider: <Code>{p.redirectUri ?? '—'}</Code>
            </Text>
            <Text size="sm">
              Group mapping:{' '}
              {Object.entries(p.groupMappings)
                .map(([upstream, groups]) => `${upstream} → ${groups.length} group(s)`)
                .join('; ') || 'none'}
            </Text>
            <Domains provider={p} mayVerify={mayWrite} />
          </Stack>
        </Card>
      ))}
      {editing ? (
        <EditIdentityProviderDialog provider={editing} onClose={() => setEditing(null)} />
      ) : null}
      {mayWrite ? <IdentityProviderForm /> : null}
    </Stack>
  );
}

function Domains({
  provider,
  mayVerify,
}: {
  provider: IdentityProviderResponseDto;
  mayVerify: boolean;
}) {
  const verify = useAction(
    (domain: string) => admin.verifyDomain(provider.id, domain),
    ['identity-providers'],
  );
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={640}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>E-mail domain</Table.Th>
              <Table.Th>TXT record to publish</Table.Th>
              <Table.Th>Verified</Table.Th>
              <Table.Th>Last check</Table.Th>
              {mayVerify ? <Table.Th>Actions</Table.Th> : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {provider.emailDomains.map((d) => (
              <Table.Tr key={d.domain}>
                <Table.Td>{d.domain}</Table.Td>
                <Table.Td>
                  <Code>{d.expectedTxtRecordName}</Code> = <Code>{d.expectedTxtRecordValue}</Code>
                </Table.Td>
                <Table.Td>
                  {d.verifiedAt ? (
                    <Badge color={SUCCESS_COLOR}>verified</Badge>
                  ) : (
                    <Badge color="gray.8">not verified</Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  <When at={d.lastCheckedAt} />
                  {d.lastCheckError ? ` — ${d.lastCheckError}` : ''}
                </Table.Td>
                {mayVerify ? (
                  <Table.Td>
                    <Button
                      size="xs"
                      aria-label={`Verify ${d.domain}`}
                      loading={verify.isPending && verify.variables === d.domain}
                      onClick={() => verify.mutate(d.domain)}
                    >
                      Verify
                    </Button>
                  </Table.Td>
                ) : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ErrorAlert error={verify.error} title="The domain could not be verified" />
    </Stack>
  );
}
