import { Button, Group, Modal, Stack } from '@mantine/core';
import { ReactNode } from 'react';

import { ErrorAlert } from './error-alert';

interface Props {
  title: string;
  confirmLabel: string;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}

/** An action that cannot be taken back, asked once more in Mantine's modal before it is taken. */
export function ConfirmDialog(props: Props) {
  const { title, confirmLabel, pending, error, onConfirm, onClose, children } = props;
  return (
    <Modal opened onClose={onClose} title={title} closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack gap="sm">
        {children}
        <ErrorAlert error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button color="red.9" loading={pending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
