import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { Guarded } from './guarded.tsx';

/** The button above a list that makes a new one, disabled with the reason when the user may not. */
export function CreateButton({
  permission,
  onClick,
  children,
}: {
  permission: { allowed: boolean; reason: string | undefined };
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Group justify="flex-end">
      <Guarded reason={permission.reason}>
        <Button onClick={onClick} disabled={!permission.allowed}>
          {children}
        </Button>
      </Guarded>
    </Group>
  );
}
