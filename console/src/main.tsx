import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { whenUnauthenticated } from './api/http.ts';
import { queryClient } from './api/query-client.ts';
import { router } from './router.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

// A session that ended (signed out elsewhere, expired) sends the user to sign in, then back to where they were.
whenUnauthenticated(() => {
  // Back to the page being opened when the refusal came while navigating to it, else to the one shown.
  const to = router.state.navigation.location ?? window.location;
  if (to.pathname === '/login') return;
  queryClient.clear();
  void router.navigate(`/login?redirect=${encodeURIComponent(`${to.pathname}${to.search}`)}`);
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Notifications position="bottom-right" />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
