import { Pill, type PillProps } from '@mantine/core';

type Props = Omit<PillProps, 'withRemoveButton' | 'onRemove' | 'removeButtonProps'> & {
  removeLabel: string;
  onRemove: (() => void) | undefined;
};

/**
 * A value with a button that removes it. Mantine hides a pill's remove button from keyboards and screen readers
 * (it expects Backspace in an input); here the button can be reached and is named for what it removes.
 */
export function RemovablePill({ removeLabel, onRemove, children, ...pill }: Props) {
  return (
    <Pill
      {...pill}
      withRemoveButton={onRemove !== undefined}
      {...(onRemove ? { onRemove } : {})}
      removeButtonProps={{ 'aria-label': removeLabel, 'aria-hidden': false, tabIndex: 0 }}
    >
      {children}
    </Pill>
  );
}
