import { Alert, Anchor, Button, Group, NativeSelect, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { fieldError, messageOf } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { useServiceAccounts } from '../personal-access-tokens/pat-queries.ts';
import { Failed, Loading } from '../ui/states.tsx';
import { useManagedAsCode, useSetManagedAsCode } from './project-queries.ts';

/** A project's "managed as code" setting: the repository and path of its files, and the pipeline's service account. */
export default function ManagedAsCodePage() {
  const project = useParams().projectId ?? '';
  const settings = useManagedAsCode(project);
  const write = usePermission()('UPDATE_PROJECT', { project });
  const accounts = useServiceAccounts(write.allowed);
  const save = useSetManagedAsCode(project);
  const [enabled, setEnabled] = useState(false);
  const [repository, setRepository] = useState('');
  const [path, setPath] = useState('');
  const [account, setAccount] = useState('');
  useEffect(() => {
    if (!settings.data) return;
    setEnabled(settings.data.enabled);
    setRepository(settings.data.repository ?? '');
    setPath(settings.data.path ?? '');
    setAccount(settings.data.serviceAccountId === null ? '' : String(settings.data.serviceAccountId));
  }, [settings.data]);
  if (settings.isPending) return <Loading label="Loading the setting" />;
  if (settings.isError) return <Failed error={settings.error} />;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      enabled,
      repository: enabled ? repository : null,
      path: enabled && path ? path : null,
      serviceAccountId: enabled && account ? Number(account) : null,
    });
  };
  return (
    <Stack maw={720}>
      <div>
        <Text size="sm" c="dimmed">
          <Anchor component={Link} to={`/projects/${encodeURIComponent(project)}`}>
            {project}
          </Anchor>{' '}
          / settings
        </Text>
        <Title order={1}>Managed as code</Title>
      </div>
      <Text>
        When a project is managed as code, its flags and segments live in files in a repository and a pipeline applies
        them with the <code>bunting</code> CLI. Changes made here, by anyone, are refused with a note saying where to
        make them, so the files stay the truth. Only the service account named below (the pipeline&apos;s) may change
        the project, and in environments that require change requests it opens them for review like anyone else.
      </Text>
      <form onSubmit={submit}>
        <Stack>
          <Switch
            label="Manage this project as code"
            checked={enabled}
            disabled={!write.allowed}
            onChange={(event) => setEnabled(event.currentTarget.checked)}
          />
          <TextInput
            label="Repository"
            description="Where the files are, for example github.com/acme/flags"
            value={repository}
            disabled={!enabled || !write.allowed}
            required={enabled}
            error={fieldError(save.error, 'repository')}
            onChange={(event) => setRepository(event.currentTarget.value)}
          />
          <TextInput
            label="Path"
            description="The project's file or folder in the repository"
            value={path}
            disabled={!enabled || !write.allowed}
            onChange={(event) => setPath(event.currentTarget.value)}
          />
          <NativeSelect
            label="Pipeline's service account"
            description="Its tokens are the only ones that may change the project"
            value={account}
            disabled={!enabled || !write.allowed}
            data={[
              { value: '', label: 'None (nobody may change it)' },
              ...(accounts.data?.serviceAccounts ?? []).map((item) => ({
                value: String(item.id),
                label: item.name ?? item.username ?? `Service account ${item.id}`,
              })),
            ]}
            onChange={(event) => setAccount(event.currentTarget.value)}
          />
          {save.isError && !fieldError(save.error, 'repository') ? (
            <Alert color="red">{messageOf(save.error)}</Alert>
          ) : null}
          <Group>
            <Button type="submit" loading={save.isPending} disabled={!write.allowed}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
