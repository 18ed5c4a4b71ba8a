import { Button, Fieldset, Group, Stack } from '@mantine/core';
import { ReactNode } from 'react';

import { ErrorAlert } from './error-alert';

interface Props {
  legend: string;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: () => void;
  children: ReactNode;
}

/** A creation form: its fields in a labelled fieldset, one submit button, the problem if any. */
export function CreateForm({ legend, submitLabel, pending, error, onSubmit, children }: Props) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <Fieldset legend={legend}>
        <Stack gap="xs">
          <Group align="end" wrap="wrap">
            {children}
            <Button type="submit" loading={pending}>
              {submitLabel}
            </Button>
          </Group>
          <ErrorAlert error={error} />
        </Stack>
      </Fieldset>
    </form>
  );
}
