import { Tooltip } from '@mantine/core';
import type { ReactElement } from 'react';

/**
 * A control the user may not use is shown disabled, with the reason on hover and focus (a disabled control cannot
 * take focus, so the reason hangs on a wrapper that can).
 */
export function Guarded({ reason, children }: { reason: string | undefined; children: ReactElement }) {
  if (!reason) return children;
  return (
    <Tooltip label={reason} withArrow multiline maw={280}>
      <span tabIndex={0} aria-label={reason} style={{ display: 'inline-block' }}>
        {children}
      </span>
    </Tooltip>
  );
}
