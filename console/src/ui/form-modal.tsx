import { Alert, Button, Group, Modal, Stack, type ModalProps } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { fieldError, messageOf } from '../api/http.ts';

type Props = {
  title: string;
  onClose: () => void;
  onSubmit: () => void;
  submitLabel: string;
  /** What the other button says: Cancel, or Done where the dialog also shows what is saved. */
  closeLabel?: string;
  pending: boolean;
  disabled?: boolean;
  /** The last refusal: a field's problem shows at the field, anything else above the buttons. */
  error: unknown;
  /** The fields the form shows its own errors at. */
  fields?: readonly string[];
  size?: ModalProps['size'];
  children: ReactNode;
};

/** A form in a dialog: its fields, the refusal no field shows, Cancel and the action. */
export function FormModal({
  title,
  onClose,
  onSubmit,
  submitLabel,
  closeLabel = 'Cancel',
  pending,
  disabled,
  error,
  fields = [],
  size,
  children,
}: Props) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Modal opened onClose={onClose} title={title} {...(size ? { size } : {})}>
      <form onSubmit={submit}>
        <Stack>
          {children}
          <FormError error={error} fields={fields} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {closeLabel}
            </Button>
            <Button type="submit" loading={pending} disabled={disabled ?? false}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A refusal that none of the given fields shows, as an alert. */
export function FormError({ error, fields = [] }: { error: unknown; fields?: readonly string[] }) {
  if (!error || fields.some((field) => fieldError(error, field))) return null;
  return (
    <Alert color="red" role="alert">
      {messageOf(error)}
    </Alert>
  );
}
