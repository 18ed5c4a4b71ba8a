import { Alert, List } from '@mantine/core';

import { ApiError } from '../api/client';

/** A failed call as a person reads it: the problem's title, detail and each bad field (D12). */
export function ErrorAlert({ error, title }: { error: unknown; title?: string }) {
  if (!error) {
    return null;
  }
  const problem = error instanceof ApiError ? error : undefined;
  return (
    <Alert color="red" title={title ?? problem?.title ?? 'Something went wrong'} role="alert">
      {problem?.detail || (error instanceof Error ? error.message : 'The request failed.')}
      {problem?.errors.length ? (
        <List size="sm" mt="xs">
          {problem.errors.map((e) => (
            <List.Item key={`${e.field}${e.message}`}>
              {e.field}: {e.message}
            </List.Item>
          ))}
        </List>
      ) : null}
    </Alert>
  );
}
