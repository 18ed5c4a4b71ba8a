import { Button, Group, Modal, Stack } from '@mantine/core';
import { ReactNode } from 'react';

import { ErrorAlert } from './error-alert';

interface Props {
  title: string;
  pending: boolean;
  error: unknown;
  onSave: () => void;
  onClose: () => void;
  children: ReactNode;
}

/**
 * An entry changed in place: Mantine's modal (focus trapped and returned, Escape closes) holding
 * the entry's fields, saved through the API's PATCH or PUT, the problem shown if it refuses.
 */
export function EditDialog({ title, pending, error, onSave, onClose, children }: Props) {
  return (
    <Modal
      opened
      onClose={onClose}
      title={title}
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSave();
        }}
      >
        <Stack gap="sm">
          {children}
          <ErrorAlert error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={pending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
