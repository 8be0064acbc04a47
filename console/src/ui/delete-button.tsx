import type { ReactNode } from 'react';
import { ConfirmButton } from './confirm-button.tsx';

type Props = {
  /** The button's word: Remove where the thing is taken out of a list rather than destroyed, Disconnect for a link cut. */
  verb?: 'Delete' | 'Remove' | 'Disconnect';
  /** What is deleted, as the button's accessible name ends: "the tag type simple". */
  what: string;
  /** The question asked before deleting. */
  title: string;
  /** What deleting it does to whoever depends on it. */
  message: ReactNode;
  onConfirm: () => Promise<unknown> | void;
  disabled?: boolean;
};

/** The small red Delete (or Remove) of a table row, which asks first. */
export function DeleteButton({ verb = 'Delete', what, title, message, onConfirm, disabled }: Props) {
  return (
    <ConfirmButton
      size="compact-sm"
      variant="subtle"
      color="red"
      aria-label={`${verb} ${what}`}
      disabled={disabled}
      title={title}
      message={message}
      confirmLabel={verb}
      onConfirm={onConfirm}
    >
      {verb}
    </ConfirmButton>
  );
}
