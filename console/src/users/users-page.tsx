import {
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  PasswordInput,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import type { Role, User } from '@bunting/contracts';
import { fieldError } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { FormModal } from '../ui/form-modal.tsx';
import { Guarded } from '../ui/guarded.tsx';
import { SecretOnce } from '../ui/secret-once.tsx';
import { Empty, Failed, Loading } from '../ui/states.tsx';
import {
  useCreateUser,
  useEmailEnabled,
  useRemoveUser,
  useResetLink,
  useUnlockUser,
  useUpdateUser,
  useUsers,
} from './user-queries.ts';

// As many failed sign-ins as lock a user for a while (admin-api's login guard).
const LOCKING_FAILURES = 5;
const MANAGED =
  'Managed by your identity provider through SCIM: change the name and e-mail there (the root role is yours to set).';

function displayName(user: User) {
  return user.name ?? user.username ?? user.email ?? `User ${user.id}`;
}

function CreateUserModal({ roles, onClose }: { roles: Role[]; onClose: () => void }) {
  const [form, setForm] = useState({ name: '', username: '', email: '', rootRole: 'Viewer', password: '' });
  const emailEnabled = useEmailEnabled().data === true;
  const [sendEmail, setSendEmail] = useState(true);
  const resetLink = useResetLink();
  const create = useCreateUser();
  const error = create.error;
  const set = (field: keyof typeof form) => (value: string) => setForm((current) => ({ ...current, [field]: value }));
  const welcomed = emailEnabled && sendEmail && form.email.trim() !== '';
  const submit = () =>
    create.mutate(
      {
        ...(form.name ? { name: form.name } : {}),
        ...(form.username ? { username: form.username } : {}),
        ...(form.email ? { email: form.email } : {}),
        ...(form.password ? { password: form.password } : {}),
        rootRole: Number(form.rootRole) || (roles.find((role) => role.name === form.rootRole)?.id ?? 0),
        ...(welcomed ? { sendEmail: true } : {}),
      },
      {
        // Without a password, the new user is given a link to choose one: in the welcome e-mail, else here to copy
        // (a link made here would retire the mailed one).
        onSuccess: (user) => (form.password || welcomed ? onClose() : resetLink.mutate(user.id)),
      },
    );
  if (resetLink.data) {
    return (
      <Modal opened onClose={onClose} title="Give the new user this link">
        <Stack>
          <Text size="sm">
            Bunting sends no e-mail: send this link to the new user so they can choose a password. It works once, for a
            limited time.
          </Text>
          <SecretOnce label="Password link" secret={resetLink.data.resetPasswordUrl} />
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      </Modal>
    );
  }
  return (
    <FormModal
      title="New user"
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Add user"
      pending={create.isPending || resetLink.isPending}
      error={error}
      fields={['name', 'username', 'email', 'password', 'rootRole']}
    >
      <TextInput
        label="Name"
        value={form.name}
        onChange={(event) => set('name')(event.currentTarget.value)}
        error={fieldError(error, 'name')}
        data-autofocus
      />
      <TextInput
        label="User name"
        value={form.username}
        onChange={(event) => set('username')(event.currentTarget.value)}
        error={fieldError(error, 'username')}
      />
      <TextInput
        label="Email"
        type="email"
        value={form.email}
        onChange={(event) => set('email')(event.currentTarget.value)}
        error={fieldError(error, 'email')}
        description="A user name or an email is needed to sign in"
      />
      <Select
        label="Root role"
        allowDeselect={false}
        data={roles.map((role) => ({ value: String(role.id), label: role.name }))}
        value={roles.find((role) => role.name === form.rootRole)?.id.toString() ?? form.rootRole}
        onChange={(value) => value && set('rootRole')(value)}
        error={fieldError(error, 'rootRole')}
      />
      <PasswordInput
        label="Password"
        description="Leave empty to give the user a link to choose one"
        value={form.password}
        onChange={(event) => set('password')(event.currentTarget.value)}
        error={fieldError(error, 'password')}
      />
      {emailEnabled ? (
        <Checkbox
          label="Send a welcome e-mail with a link to choose a password"
          checked={sendEmail}
          disabled={form.email.trim() === ''}
          onChange={(event) => setSendEmail(event.currentTarget.checked)}
        />
      ) : (
        <Text size="xs" c="dimmed">
          This installation sends no e-mail: without a password, you get a link to give the new user.
        </Text>
      )}
    </FormModal>
  );
}

function EditUserModal({ user, onClose }: { user: User; onClose: () => void }) {
  const [name, setName] = useState(user.name ?? '');
  const [email, setEmail] = useState(user.email ?? '');
  const save = useUpdateUser();
  return (
    <FormModal
      title={`Edit ${displayName(user)}`}
      onClose={onClose}
      onSubmit={() => save.mutate({ id: user.id, body: { name, ...(email ? { email } : {}) } }, { onSuccess: onClose })}
      submitLabel="Save"
      pending={save.isPending}
      error={save.error}
      fields={['name', 'email']}
    >
      <TextInput
        label="Name"
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={fieldError(save.error, 'name')}
        data-autofocus
      />
      <TextInput
        label="Email"
        type="email"
        value={email}
        onChange={(event) => setEmail(event.currentTarget.value)}
        error={fieldError(save.error, 'email')}
      />
    </FormModal>
  );
}

/** People with an account: search, add (with a link to set a password), edit, change their root role, unlock, reset, remove. */
export default function UsersPage() {
  const can = usePermission();
  const admin = can('ADMIN');
  const users = useUsers();
  const [search, setSearch] = useState('');
  const [settled] = useDebouncedValue(search.trim().toLowerCase(), 200);
  const [creating, { open, close }] = useDisclosure(false);
  const resetLink = useResetLink();
  const [resetFor, setResetFor] = useState<string | null>(null);
  const [editing, setEditing] = useState<User | null>(null);
  const changeRole = useUpdateUser();
  const removeUser = useRemoveUser();
  const unlock = useUnlockUser();
  if (users.isPending) return <Loading label="Loading users" />;
  if (users.isError) return <Failed error={users.error} />;
  const roles = users.data.rootRoles ?? [];
  const shown = users.data.users.filter(
    (user) =>
      !settled || [user.name, user.username, user.email].some((value) => value?.toLowerCase().includes(settled)),
  );
  return (
    <Stack>
      <Group justify="space-between">
        <TextInput
          label="Search users"
          w={280}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
        />
        <Guarded reason={admin.reason}>
          <Button onClick={open} disabled={!admin.allowed}>
            New user
          </Button>
        </Guarded>
      </Group>
      {resetLink.data && resetFor ? (
        <SecretOnce label={`Password link for ${resetFor}`} secret={resetLink.data.resetPasswordUrl} />
      ) : null}
      {shown.length === 0 ? (
        <Empty title="No users match" />
      ) : (
        <Table striped aria-label="Users">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Email or user name</Table.Th>
              <Table.Th>Root role</Table.Th>
              <Table.Th>Last seen</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((user) => (
              <Table.Tr key={user.id}>
                <Table.Td>
                  {displayName(user)}{' '}
                  {user.accountType === 'Service Account' ? (
                    <Badge size="xs" variant="light">
                      service account
                    </Badge>
                  ) : null}
                  {(user.loginAttempts ?? 0) >= LOCKING_FAILURES ? (
                    <Badge size="xs" color="red" variant="light">
                      {user.loginAttempts} failed sign-ins
                    </Badge>
                  ) : null}
                  {user.scimId ? (
                    <Badge size="xs" color="grape" variant="light">
                      SCIM
                    </Badge>
                  ) : null}
                </Table.Td>
                <Table.Td>{user.email ?? user.username ?? ''}</Table.Td>
                <Table.Td>
                  <Select
                    aria-label={`Root role of ${displayName(user)}`}
                    w={140}
                    size="xs"
                    allowDeselect={false}
                    disabled={!admin.allowed}
                    data={roles.map((role) => ({ value: String(role.id), label: role.name }))}
                    value={user.rootRole !== undefined ? String(user.rootRole) : null}
                    onChange={(value) => value && changeRole.mutate({ id: user.id, body: { rootRole: Number(value) } })}
                  />
                </Table.Td>
                <Table.Td>{user.seenAt ? new Date(user.seenAt).toLocaleString() : 'never'}</Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    <Guarded reason={user.scimId ? MANAGED : undefined}>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        disabled={!admin.allowed || Boolean(user.scimId)}
                        aria-label={`Edit ${displayName(user)}`}
                        onClick={() => setEditing(user)}
                      >
                        Edit
                      </Button>
                    </Guarded>
                    {(user.loginAttempts ?? 0) >= LOCKING_FAILURES ? (
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        disabled={!admin.allowed}
                        aria-label={`Unlock ${displayName(user)}`}
                        onClick={() => unlock.mutate(user)}
                      >
                        Unlock
                      </Button>
                    ) : null}
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      disabled={!admin.allowed}
                      aria-label={`Reset password of ${displayName(user)}`}
                      onClick={() => {
                        setResetFor(displayName(user));
                        resetLink.mutate(user.id);
                      }}
                    >
                      Reset password
                    </Button>
                    <ConfirmButton
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      disabled={!admin.allowed || Boolean(user.scimId)}
                      aria-label={`Remove ${displayName(user)}`}
                      title={`Remove ${displayName(user)}?`}
                      message="They lose access at once; what they changed stays in the history."
                      confirmLabel="Remove"
                      onConfirm={() => removeUser.mutate(user.id)}
                    >
                      Remove
                    </ConfirmButton>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {creating ? <CreateUserModal roles={roles} onClose={close} /> : null}
      {editing ? <EditUserModal user={editing} onClose={() => setEditing(null)} /> : null}
    </Stack>
  );
}
