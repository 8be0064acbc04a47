import { Alert, Button, Group, NativeSelect, PasswordInput, Stack, Switch, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { fieldError, messageOf } from '../../api/http.ts';
import { QueryView } from '../../ui/query-view.tsx';
import { useOidcSettings, useSaveOidcSettings, type OidcSettings } from './oidc-queries.ts';

type Oidc = OidcSettings;

/** The OpenID Connect provider and what its sign-ins may do. */
function OidcSettingsForm({ saved }: { saved: Oidc }) {
  const [form, setForm] = useState<Oidc>(saved);
  useEffect(() => setForm(saved), [saved]);
  const save = useSaveOidcSettings();
  const set = <K extends keyof Oidc>(key: K, value: Oidc[K]) => setForm((current) => ({ ...current, [key]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The secret comes back masked; sent back unchanged it keeps the stored one. Empty fields are left out.
    save.mutate(Object.fromEntries(Object.entries(form).filter(([, value]) => value !== '' && value !== undefined)));
  };
  return (
    <form onSubmit={submit} aria-label="OpenID Connect">
      <Stack>
        <Switch
          label="Sign in with OpenID Connect"
          checked={form.enabled ?? false}
          onChange={(event) => set('enabled', event.currentTarget.checked)}
        />
        <TextInput
          label="Discover URL"
          description="The provider's issuer; /.well-known/openid-configuration is read from it"
          value={form.discoverUrl ?? ''}
          onChange={(event) => set('discoverUrl', event.currentTarget.value)}
          error={fieldError(save.error, 'discoverUrl')}
        />
        <Group grow align="flex-start">
          <TextInput
            label="Client ID"
            value={form.clientId ?? ''}
            onChange={(event) => set('clientId', event.currentTarget.value)}
            error={fieldError(save.error, 'clientId')}
          />
          <PasswordInput
            label="Client secret"
            description="Shown masked once saved"
            value={form.secret ?? ''}
            onChange={(event) => set('secret', event.currentTarget.value)}
          />
        </Group>
        <Switch
          label="Create users on their first sign-in"
          checked={form.autoCreate ?? false}
          onChange={(event) => set('autoCreate', event.currentTarget.checked)}
        />
        <Group grow align="flex-start">
          <NativeSelect
            label="Their root role"
            value={form.defaultRootRole ?? 'Viewer'}
            onChange={(event) => set('defaultRootRole', event.currentTarget.value as Oidc['defaultRootRole'])}
            data={['Viewer', 'Editor', 'Admin']}
          />
          <TextInput
            label="Only from these e-mail domains"
            description="Comma-separated; empty: any"
            value={form.emailDomains ?? ''}
            onChange={(event) => set('emailDomains', event.currentTarget.value)}
          />
        </Group>
        {save.error && !fieldError(save.error, 'discoverUrl') && !fieldError(save.error, 'clientId') ? (
          <Alert color="red" role="alert">
            {messageOf(save.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            Save OpenID Connect settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** OpenID Connect's section of the sign-in settings. */
export function OidcSettingsSection() {
  const settings = useOidcSettings();
  return (
    <QueryView query={settings} loading="Loading">
      {(data) => <OidcSettingsForm saved={data} />}
    </QueryView>
  );
}
