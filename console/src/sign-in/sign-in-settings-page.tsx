import { Paper, Stack, Title } from '@mantine/core';
import { ScimSettingsSection } from '../scim/scim-settings.tsx';
import { SIGN_IN_METHODS } from './sign-in-methods.ts';

/** How people sign in (Unleash's /admin/auth): a section for each sign-in method, and SCIM provisioning. */
export default function SignInSettingsPage() {
  return (
    <Stack maw={760}>
      {SIGN_IN_METHODS.map(({ type, title, Settings }) => (
        <Paper key={type} withBorder p="md">
          <Title order={2} size="h4" mb="xs">
            {title}
          </Title>
          <Settings />
        </Paper>
      ))}
      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="xs">
          SCIM provisioning
        </Title>
        <ScimSettingsSection />
      </Paper>
    </Stack>
  );
}
