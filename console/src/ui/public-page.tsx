import { Center, Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The frame of the pages a signed-out visitor opens from a link (sign up, choose a password). */
export function PublicPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Center mih="100vh" p="md">
      <main>
        <Paper withBorder shadow="sm" p="xl" w={420} maw="100%">
          <Stack>
            <Title order={1} size="h2">
              {title}
            </Title>
            {children}
          </Stack>
        </Paper>
      </main>
    </Center>
  );
}
