import { Box, Group, Tabs, Stack, Title } from '@mantine/core';
import { Outlet, useLocation, useNavigate } from 'react-router';

const SECTIONS = [
  { to: '/admin/users', label: 'Users' },
  { to: '/admin/groups', label: 'Groups' },
  { to: '/admin/roles', label: 'Roles' },
  { to: '/admin/service-accounts', label: 'Service accounts' },
  { to: '/admin/agents', label: 'Connected agents' },
  { to: '/admin/invite-links', label: 'Invite links' },
  { to: '/admin/api-tokens', label: 'API tokens' },
  { to: '/admin/environments', label: 'Environments' },
  { to: '/admin/context-fields', label: 'Context fields' },
  { to: '/admin/segments', label: 'Segments' },
  { to: '/admin/strategies', label: 'Strategies' },
  { to: '/admin/release-templates', label: 'Release templates' },
  { to: '/admin/tag-types', label: 'Tag types' },
  { to: '/admin/integrations', label: 'Integrations' },
  { to: '/admin/signals', label: 'Signals' },
  { to: '/admin/auth', label: 'Sign-in' },
  { to: '/admin/logins', label: 'Sign-in history' },
  { to: '/admin/maintenance', label: 'Maintenance' },
  { to: '/admin/instance', label: 'Statistics' },
];

/** Administration, one tab per area; each tab is its own address (Unleash's /admin/... paths). */
export default function AdminLayout() {
  const location = useLocation();
  const navigate = useNavigate();
  const current = SECTIONS.find((section) => location.pathname.startsWith(section.to))?.to ?? null;
  return (
    <Stack>
      <Title order={1}>Administration</Title>
      {/* Areas down the side: more of them than fit in a row. */}
      <Group align="flex-start" wrap="nowrap" gap="lg">
        <Tabs
          value={current}
          onChange={(value) => {
            if (value) void navigate(value);
          }}
          keepMounted={false}
          orientation="vertical"
          miw={180}
          styles={{ tabLabel: { textAlign: 'left' } }}
        >
          <Tabs.List aria-label="Administration areas">
            {SECTIONS.map((section) => (
              <Tabs.Tab key={section.to} value={section.to}>
                {section.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
        <Box flex={1} miw={0}>
          <Outlet />
        </Box>
      </Group>
    </Stack>
  );
}
