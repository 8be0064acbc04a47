import { Stack, Switch, Text } from '@mantine/core';
import { QueryView } from '../../ui/query-view.tsx';
import { usePasswordSettings, useSetPasswordSignIn } from './password-queries.ts';

/** The switch that turns password sign-in off. */
export function PasswordSettings() {
  const settings = usePasswordSettings();
  const toggle = useSetPasswordSignIn();
  return (
    <QueryView query={settings} loading="Loading">
      {(data) => (
        <Stack gap="xs">
          <Switch
            label="Sign in with a user name and password"
            checked={!data.disabled}
            onChange={(event) => toggle.mutate(!event.currentTarget.checked)}
          />
          <Text size="sm" c="dimmed">
            Turned off, the sign-in page offers the other methods only; API tokens keep working.
          </Text>
        </Stack>
      )}
    </QueryView>
  );
}
