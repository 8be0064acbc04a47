import { Alert, Button, Code, Group, NativeSelect, Stack, Switch, Text, TextInput, Textarea } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { fieldError, messageOf } from '../../api/http.ts';
import { QueryView } from '../../ui/query-view.tsx';
import { useSaveSamlSettings, useSamlSettings, type SamlSettings } from './saml-queries.ts';

type Form = SamlSettings;
const FIELDS = ['entityId', 'signOnUrl', 'signOutUrl', 'certificate', 'idpMetadata'] as const;

/** The SAML identity provider, what its sign-ins may do, and what the provider is told of Bunting. */
function SamlSettingsForm({ saved }: { saved: SamlSettings }) {
  const { spEntityId, acsUrl, metadataUrl } = saved;
  const [form, setForm] = useState<Form>(saved);
  useEffect(() => setForm(saved), [saved]);
  const save = useSaveSamlSettings();
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((current) => ({ ...current, [key]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // What Bunting tells the provider is shown, not set; empty fields are left out.
    const { spEntityId: _entity, acsUrl: _acs, metadataUrl: _metadata, ...settings } = form;
    save.mutate(
      Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== '' && value !== undefined)),
    );
  };
  return (
    <form onSubmit={submit} aria-label="SAML 2.0">
      <Stack>
        <Text size="sm">
          Give your identity provider this service provider: entity ID <Code>{spEntityId}</Code>, assertion consumer
          service (HTTP-POST) <Code>{acsUrl}</Code>, or its metadata at <Code>{metadataUrl}</Code>. Assertions must be
          signed.
        </Text>
        <Switch
          label="Sign in with SAML 2.0"
          checked={form.enabled ?? false}
          onChange={(event) => set('enabled', event.currentTarget.checked)}
        />
        <Textarea
          label="Identity provider's metadata"
          description="Optional: paste its metadata XML to fill the entity ID, addresses and certificate below (what you type there wins)"
          autosize
          minRows={2}
          maxRows={6}
          styles={{ input: { fontFamily: 'monospace' } }}
          value={form.idpMetadata ?? ''}
          onChange={(event) => set('idpMetadata', event.currentTarget.value)}
          error={fieldError(save.error, 'idpMetadata')}
        />
        <Group grow align="flex-start">
          <TextInput
            label="Identity provider's entity ID"
            description="The Issuer its assertions must name"
            value={form.entityId ?? ''}
            onChange={(event) => set('entityId', event.currentTarget.value)}
            error={fieldError(save.error, 'entityId')}
          />
          <TextInput
            label="Single sign-on URL"
            value={form.signOnUrl ?? ''}
            onChange={(event) => set('signOnUrl', event.currentTarget.value)}
            error={fieldError(save.error, 'signOnUrl')}
          />
        </Group>
        <TextInput
          label="Single sign-out URL"
          description="Optional"
          value={form.signOutUrl ?? ''}
          onChange={(event) => set('signOutUrl', event.currentTarget.value)}
          error={fieldError(save.error, 'signOutUrl')}
        />
        <Textarea
          label="Signing certificate"
          description="The identity provider's X.509 certificate, PEM"
          autosize
          minRows={3}
          maxRows={8}
          styles={{ input: { fontFamily: 'monospace' } }}
          value={form.certificate ?? ''}
          onChange={(event) => set('certificate', event.currentTarget.value)}
          error={fieldError(save.error, 'certificate')}
        />
        <Switch
          label="Create users on their first sign-in"
          checked={form.autoCreate ?? false}
          onChange={(event) => set('autoCreate', event.currentTarget.checked)}
        />
        <Group grow align="flex-start">
          <NativeSelect
            label="Their root role"
            value={form.defaultRootRole ?? 'Viewer'}
            onChange={(event) => set('defaultRootRole', event.currentTarget.value as Form['defaultRootRole'])}
            data={['Viewer', 'Editor', 'Admin', 'Reader']}
          />
          <TextInput
            label="Only from these e-mail domains"
            description="Comma-separated; empty: any"
            value={form.emailDomains ?? ''}
            onChange={(event) => set('emailDomains', event.currentTarget.value)}
          />
        </Group>
        <Group grow align="flex-start">
          <Switch
            label="Sync groups from an attribute"
            checked={form.enableGroupSyncing ?? false}
            onChange={(event) => set('enableGroupSyncing', event.currentTarget.checked)}
          />
          <TextInput
            label="Group attribute"
            description="Its values are matched against each group's SSO mappings"
            value={form.groupJsonPath ?? ''}
            onChange={(event) => set('groupJsonPath', event.currentTarget.value)}
          />
        </Group>
        {save.error && !FIELDS.some((field) => fieldError(save.error, field)) ? (
          <Alert color="red" role="alert">
            {messageOf(save.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            Save SAML settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** SAML 2.0's section of the sign-in settings. */
export function SamlSettingsSection() {
  const settings = useSamlSettings();
  return (
    <QueryView query={settings} loading="Loading">
      {(data) => <SamlSettingsForm saved={data} />}
    </QueryView>
  );
}
