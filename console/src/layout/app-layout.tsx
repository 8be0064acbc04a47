import { AppShell, Anchor, Group, Loader, Menu, Progress, Text, UnstyledButton } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { NavLink, Outlet, useLocation, useNavigate, useNavigation } from 'react-router';
import { invalidate } from '../api/endpoint.ts';
import { api } from '../api/http.ts';
import classes from './app-layout.module.css';
import { ManagedAsCodeNotice } from '../projects/managed-as-code-notice.tsx';
import { Banners } from './banners.tsx';
import { useMe } from '../api/session.ts';

const links = [
  { to: '/projects', label: 'Projects' },
  { to: '/playground', label: 'Playground' },
  { to: '/history', label: 'History' },
  { to: '/insights', label: 'Insights' },
  { to: '/impact-metrics', label: 'Impact metrics' },
  { to: '/applications', label: 'Applications' },
  { to: '/cleanup', label: 'Cleanup' },
  { to: '/admin', label: 'Admin' },
];

/** The frame of every signed-in page: the header with navigation and the user's menu, then the page. */
export function AppLayout() {
  const me = useMe();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // While the next page's code loads, a thin bar says something is happening.
  const navigating = useNavigation().state === 'loading';
  // Who is signed in is asked again on every page: a session ended elsewhere shows at the next page, not a minute later.
  const { pathname } = useLocation();
  useEffect(() => {
    void invalidate(queryClient, '/api/admin/user');
  }, [pathname, queryClient]);
  const signOut = async () => {
    await api.POST('/logout').catch(() => undefined);
    queryClient.clear();
    void navigate('/login');
  };
  // The page renders at once, so its own code and data load alongside who the user is.
  const name = me.data ? (me.data.user.name ?? me.data.user.username ?? me.data.user.email ?? 'Signed in') : '';
  return (
    <AppShell header={{ height: 56 }} padding="md">
      <AppShell.Header>
        {navigating ? (
          <Progress
            value={100}
            animated
            size={3}
            radius={0}
            pos="absolute"
            top={0}
            left={0}
            right={0}
            aria-label="Loading the page"
          />
        ) : null}
        <Group h="100%" px="md" justify="space-between">
          <Group gap="lg">
            <Anchor
              component={NavLink}
              to="/projects"
              fw={700}
              c="indigo.9"
              underline="never"
              aria-label="Bunting home"
            >
              Bunting
            </Anchor>
            <nav aria-label="Main">
              <Group gap="md">
                {links.map((link) => (
                  <Anchor
                    key={link.to}
                    component={NavLink}
                    to={link.to}
                    c="dark.7"
                    fw={500}
                    underline="hover"
                    className={classes.navLink}
                  >
                    {link.label}
                  </Anchor>
                ))}
              </Group>
            </nav>
          </Group>
          {me.isPending ? (
            <Loader size="xs" aria-label="Loading your account" />
          ) : (
            <Menu position="bottom-end">
              <Menu.Target>
                <UnstyledButton aria-label={`Account of ${name}`}>
                  <Text fw={500} size="sm">
                    {name}
                  </Text>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item onClick={() => void navigate('/profile')}>Profile</Menu.Item>
                <Menu.Item onClick={() => void signOut()}>Sign out</Menu.Item>
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        <main>
          <Banners />
          <ManagedAsCodeNotice />
          <Outlet />
        </main>
      </AppShell.Main>
    </AppShell>
  );
}
