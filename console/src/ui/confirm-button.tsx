import { Button, Group, Modal, Stack, Text, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';

type Props = ButtonProps & {
  children: ReactNode;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<unknown> | void;
  'aria-label'?: string;
};

/** A button for something hard to undo: it asks first, naming what will happen. */
export function ConfirmButton({ children, title, message, confirmLabel, onConfirm, ...button }: Props) {
  const [opened, { open, close }] = useDisclosure(false);
  const confirm = async () => {
    await onConfirm();
    close();
  };
  return (
    <>
      <Button {...button} onClick={open}>
        {children}
      </Button>
      <Modal opened={opened} onClose={close} title={title}>
        <Stack>
          <Text size="sm">{message}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red" onClick={() => void confirm().catch(() => undefined)}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
