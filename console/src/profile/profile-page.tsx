import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  PasswordInput,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { fieldError, messageOf } from '../api/http.ts';
import { useMe } from '../api/session.ts';
import { patBody, useCreateOwnToken, useDeleteOwnToken, useOwnTokens } from '../personal-access-tokens/pat-queries.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { DeleteButton } from '../ui/delete-button.tsx';
import { FormError } from '../ui/form-modal.tsx';
import { ListTable } from '../ui/list-table.tsx';
import { SecretOnce } from '../ui/secret-once.tsx';
import { Failed, Loading } from '../ui/states.tsx';
import { ConnectAgent } from '../mcp/connect-agent.tsx';
import { ConnectedAgents } from '../agent-tokens/connected-agents.tsx';
import {
  useChangeOwnPassword,
  useEmailSent,
  useNotifications,
  useProfile,
  useSetNotifications,
  useSignOutEverywhere,
} from './profile-queries.ts';

function ChangePassword() {
  const [oldPassword, setOldPassword] = useState('');
  const [password, setPassword] = useState('');
  const change = useChangeOwnPassword();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate(
      { oldPassword, password, confirmPassword: password },
      {
        onSuccess: () => {
          setOldPassword('');
          setPassword('');
        },
      },
    );
  };
  return (
    <form onSubmit={submit}>
      <Stack maw={420}>
        <PasswordInput
          label="Current password"
          required
          value={oldPassword}
          onChange={(event) => setOldPassword(event.currentTarget.value)}
        />
        <PasswordInput
          label="New password"
          description="At least 8 characters"
          required
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          error={fieldError(change.error, 'password')}
        />
        <FormError error={change.error} fields={['password']} />
        <Group>
          <Button type="submit" loading={change.isPending} disabled={!oldPassword || !password}>
            Change password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

const EXPIRIES = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: 'A year' },
];

function PersonalAccessTokens() {
  const pats = useOwnTokens();
  const [description, setDescription] = useState('');
  const [days, setDays] = useState('30');
  const create = useCreateOwnToken();
  const deletePat = useDeleteOwnToken();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(patBody(description, Number(days)), { onSuccess: () => setDescription('') });
  };
  return (
    <Stack>
      <Text size="sm">A personal access token acts as you in scripts, with your permissions.</Text>
      <form onSubmit={submit}>
        <Group align="flex-end">
          <TextInput
            label="Description"
            w={260}
            required
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            error={fieldError(create.error, 'description')}
          />
          <Select
            label="Expires in"
            w={140}
            allowDeselect={false}
            data={EXPIRIES}
            value={days}
            onChange={(value) => value && setDays(value)}
          />
          <Button type="submit" loading={create.isPending} disabled={!description.trim()}>
            Create token
          </Button>
        </Group>
      </form>
      {create.data?.secret ? <SecretOnce label="Personal access token" secret={create.data.secret} /> : null}
      <ListTable
        query={pats}
        label="Personal access tokens"
        empty="You have no personal access tokens."
        columns={['Description', 'Expires', 'Last used', '']}
        rowsOf={(data) => data.pats}
        rowKey={(pat) => pat.id}
        cells={(pat) => (
          <>
            <Table.Td>{pat.description}</Table.Td>
            <Table.Td>{new Date(pat.expiresAt).toLocaleDateString()}</Table.Td>
            <Table.Td>{pat.seenAt ? new Date(pat.seenAt).toLocaleString() : 'never'}</Table.Td>
            <Table.Td>
              <DeleteButton
                what={`the token ${pat.description}`}
                title={`Delete ${pat.description}?`}
                message="Scripts using it are refused from then on."
                onConfirm={() => deletePat.mutate(pat.id)}
              />
            </Table.Td>
          </>
        )}
      />
    </Stack>
  );
}

/** Ends every session of the user, this one included: for a lost laptop or a shared computer left signed in. */
function SignOutEverywhere() {
  const navigate = useNavigate();
  const end = useSignOutEverywhere(() => void navigate('/login'));
  return (
    <Stack gap="xs">
      <Text size="sm">Signs you out on every device and browser, this one included.</Text>
      {end.error ? (
        <Alert color="red" role="alert">
          {messageOf(end.error)}
        </Alert>
      ) : null}
      <Group>
        <ConfirmButton
          variant="light"
          color="red"
          title="Sign out everywhere?"
          message="Every device and browser you are signed in on will ask you to sign in again."
          confirmLabel="Sign out everywhere"
          onConfirm={() => end.mutate()}
        >
          Sign out everywhere
        </ConfirmButton>
      </Group>
    </Stack>
  );
}

/** The signed-in person's own page (Unleash's /profile): who they are, their roles and projects, password, tokens. */
/** Whether change requests waiting for the user's review are mailed to them. */
function EmailPreferences() {
  const preferences = useNotifications();
  const sent = useEmailSent();
  const save = useSetNotifications();
  if (preferences.isPending) return <Loading label="Loading your e-mail preferences" />;
  if (preferences.isError) return <Failed error={preferences.error} />;
  return (
    <Stack gap="xs">
      <Switch
        label="E-mail me when a change request waits for my review"
        checked={preferences.data.changeRequests}
        disabled={save.isPending}
        onChange={(event) => save.mutate({ changeRequests: event.currentTarget.checked })}
      />
      {sent.data === false ? (
        <Text size="xs" c="dimmed">
          This installation sends no e-mail yet (an admin sets up SMTP); the choice is kept for when it does.
        </Text>
      ) : null}
    </Stack>
  );
}

export default function ProfilePage() {
  const me = useMe();
  const profile = useProfile();
  if (me.isPending || profile.isPending) return <Loading label="Loading your profile" />;
  if (me.isError || profile.isError) return <Failed error={me.error ?? profile.error} />;
  const user = me.data.user;
  return (
    <Stack>
      <Title order={1}>{user.name ?? user.username ?? user.email ?? 'Profile'}</Title>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Text>{user.email ?? user.username}</Text>
          <Group gap="xs">
            <Text size="sm">Root role</Text>
            <Badge variant="light">{profile.data.rootRole.name}</Badge>
          </Group>
          <Text size="sm">
            Projects: {profile.data.projects.length > 0 ? profile.data.projects.join(', ') : 'none as a member'}
          </Text>
          {profile.data.groups.length > 0 ? (
            <Text size="sm">Groups: {profile.data.groups.map((group) => group.name).join(', ')}</Text>
          ) : null}
        </Stack>
      </Paper>
      {profile.data.canChangePassword ? (
        <Paper withBorder p="md">
          <Stack>
            <Title order={2} size="h4">
              Password
            </Title>
            <ChangePassword />
          </Stack>
        </Paper>
      ) : null}
      <Paper withBorder p="md">
        <Stack>
          <Title order={2} size="h4">
            E-mail
          </Title>
          <EmailPreferences />
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack>
          <Title order={2} size="h4">
            Personal access tokens
          </Title>
          <PersonalAccessTokens />
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack>
          <Title order={2} size="h4">
            Connect a coding agent
          </Title>
          <ConnectAgent />
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack>
          <Title order={2} size="h4">
            Connected agents
          </Title>
          <ConnectedAgents />
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack>
          <Title order={2} size="h4">
            Sessions
          </Title>
          <SignOutEverywhere />
        </Stack>
      </Paper>
    </Stack>
  );
}
