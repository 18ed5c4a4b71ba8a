import { Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';

interface Props {
  /** "Agent support-bot registered", "New client secret of support-bot". */
  title: string;
  secret: string;
  /** What the secret is and where it goes; an agent's client secret by default. */
  explanation?: string;
  onClose: () => void;
}

/**
 * A client secret, shown this once (D30): Mantine's modal (focus trapped and returned, Escape
 * closes) with the secret and a button that copies it. Once closed it cannot be shown again.
 */
export function SecretDialog({ title, secret, explanation, onClose }: Props) {
  return (
    <Modal
      opened
      onClose={onClose}
      title={title}
      size="lg"
      // Not lost to a stray click: once closed, the secret cannot be shown again.
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="sm">
        <Text>
          {explanation ??
            'Its client secret, shown this once: copy it now and keep it where the agent reads it. It cannot be shown again; rotating it makes a new one.'}
        </Text>
        <Code block>{secret}</Code>
        <Group justify="flex-end">
          <CopyButton value={secret} timeout={3_000}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy}>
                {copied ? 'Copied' : 'Copy secret'}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose} data-autofocus>
            Done
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
