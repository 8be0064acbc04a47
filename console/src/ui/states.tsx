import { Alert, Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ApiError, messageOf } from '../api/http.ts';

/** What a page shows while its data loads, when it fails, and when there is nothing yet. */
export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <Center py="xl">
      <Loader aria-label={label} />
    </Center>
  );
}

export function Failed({ error, title = 'This could not be loaded' }: { error: unknown; title?: string }) {
  const forbidden = error instanceof ApiError && error.status === 403;
  return (
    <Alert color="red" title={forbidden ? 'You may not see this' : title} role="alert">
      {messageOf(error)}
    </Alert>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack align="center" gap="xs" py="xl">
      <Text fw={600}>{title}</Text>
      {children ? (
        <Text c="dimmed" size="sm" ta="center">
          {children}
        </Text>
      ) : null}
    </Stack>
  );
}
