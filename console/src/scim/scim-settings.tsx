import { Button, Code, Group, Stack, Switch, Text } from '@mantine/core';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { QueryView } from '../ui/query-view.tsx';
import { SecretOnce } from '../ui/secret-once.tsx';
import { useNewScimToken, useScimSettings, useSetScim } from './scim-queries.ts';

/** SCIM provisioning: on or off, the address and token an identity provider (Okta, Entra ID...) is given. */
export function ScimSettingsSection() {
  const settings = useScimSettings();
  const toggle = useSetScim();
  const token = useNewScimToken();
  const base = `${window.location.origin}/scim/v2`;
  return (
    <QueryView query={settings} loading="Loading">
      {(data) => (
        <Stack gap="xs">
          <Text size="sm">
            Your identity provider creates, changes and deactivates users and groups here. Users and groups it manages
            are marked SCIM in the lists, and their names and members are changed there.
          </Text>
          <Switch
            label="Provision users and groups with SCIM"
            checked={data.enabled}
            onChange={(event) => toggle.mutate(event.currentTarget.checked)}
          />
          <Group gap="xs">
            <Text size="sm">Base URL</Text>
            <Code>{base}</Code>
          </Group>
          {token.data ? <SecretOnce label="SCIM token" secret={token.data.token} /> : null}
          <Group>
            {data.hasToken ? (
              <ConfirmButton
                variant="light"
                title="Make a new SCIM token?"
                message="The provider's current token stops working at once: give it the new one."
                confirmLabel="Make a new token"
                onConfirm={() => token.mutate()}
              >
                New token
              </ConfirmButton>
            ) : (
              <Button variant="light" loading={token.isPending} onClick={() => token.mutate()}>
                Make a token
              </Button>
            )}
            <Text size="xs" c="dimmed">
              {data.hasToken ? 'A token was made; it is shown only once.' : 'No token yet: the provider needs one.'}
            </Text>
          </Group>
        </Stack>
      )}
    </QueryView>
  );
}
