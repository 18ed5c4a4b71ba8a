import { Alert, Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, lazy, useEffect, useState } from 'react';

import { ApiError } from '../api/client';
import { platform } from '../api/platform';
import { SUCCESS_COLOR } from '../components/action-badge';
import { ErrorAlert } from '../components/error-alert';
import { CompileProblem, compileProblems } from './compile-problems';

// CodeMirror is a third of the policies page: its chunk loads when an editor is first shown.
const RegoEditor = lazy(() => import('./rego-editor').then((m) => ({ default: m.RegoEditor })));

const STARTER = `package agp.policies.example

default decision := {"action": "LOG"}

decision := {"action": "BLOCK", "reasons": ["secrets may not leave"]} if {
\tcontains(input.message.text, "BEGIN PRIVATE KEY")
}
`;

/** A new version of the group (D24: compiled on publish; each error shown at its line). */
export function VersionEditor({ groupId }: { groupId: string }) {
  const client = useQueryClient();
  const versions = useQuery({
    queryKey: ['policy-versions', groupId],
    queryFn: () => platform.policyVersions(groupId),
  });
  const latest = versions.data?.items[0];
  const [source, setSource] = useState<string>();
  const [version, setVersion] = useState('');
  const [problems, setProblems] = useState<CompileProblem[]>([]);
  useEffect(() => {
    if (source === undefined && versions.data) {
      setSource(latest?.regoSource ?? STARTER);
    }
  }, [latest, source, versions.data]);
  const publish = useMutation({
    mutationFn: () =>
      platform.createPolicyVersion(groupId, {
        regoSource: source ?? '',
        ...(version ? { version } : {}),
      }),
    onSuccess: async () => {
      setProblems([]);
      setVersion('');
      await client.invalidateQueries({ queryKey: ['policy-versions', groupId] });
      await client.invalidateQueries({ queryKey: ['policy-groups'] });
    },
    onError: (error) => setProblems(error instanceof ApiError ? compileProblems(error.errors) : []),
  });

  return (
    <Stack>
      <Text size="sm">
        Starts from {latest ? `version ${latest.version}` : 'an example'}. Versions never change
        once published.
      </Text>
      <Suspense fallback={<Loader aria-label="Loading the editor" />}>
        <RegoEditor
          label="Rego source"
          value={source ?? ''}
          onChange={(value) => {
            setSource(value);
            setProblems([]);
          }}
          problems={problems}
        />
      </Suspense>
      {problems.length ? (
        <Alert color="red" title={`${problems.length} compile error(s)`} role="alert">
          {problems.map((p) => (
            <Text key={`${p.line}:${p.column}:${p.message}`} size="sm">
              Line {p.line}, column {p.column}: {p.message}
            </Text>
          ))}
        </Alert>
      ) : (
        <ErrorAlert error={publish.error} />
      )}
      {publish.data ? (
        <Text role="status" c={SUCCESS_COLOR}>
          Published version {publish.data.version}.
        </Text>
      ) : null}
      <Group align="end">
        <TextInput
          label="Version (optional)"
          placeholder="next number"
          value={version}
          onChange={(e) => setVersion(e.currentTarget.value)}
        />
        <Button onClick={() => publish.mutate()} loading={publish.isPending}>
          Publish version
        </Button>
      </Group>
    </Stack>
  );
}
