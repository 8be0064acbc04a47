import { Button, Group, Modal, NativeSelect, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { Role, User } from '@bunting/contracts';
import { fieldError } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { DeleteButton } from '../ui/delete-button.tsx';
import { FormError } from '../ui/form-modal.tsx';
import { Guarded } from '../ui/guarded.tsx';
import { ListTable } from '../ui/list-table.tsx';
import { SecretOnce } from '../ui/secret-once.tsx';
import {
  patBody,
  useCreateServiceAccount,
  useCreateServiceAccountToken,
  useDeleteServiceAccount,
  useDeleteServiceAccountToken,
  useServiceAccountTokens,
  useServiceAccounts,
} from './pat-queries.ts';
const EXPIRIES = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: 'A year' },
];

function TokensModal({ account, onClose }: { account: User; onClose: () => void }) {
  const tokens = useServiceAccountTokens(account.id);
  const [description, setDescription] = useState('');
  const [days, setDays] = useState('90');
  const create = useCreateServiceAccountToken(account.id);
  const deleteToken = useDeleteServiceAccountToken(account.id);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(patBody(description, Number(days)), { onSuccess: () => setDescription('') });
  };
  const name = account.name ?? account.username ?? `#${account.id}`;
  return (
    <Modal opened onClose={onClose} title={`Tokens of ${name}`} size="lg">
      <Stack>
        <Text size="sm">A token acts as the service account, with its root role and project roles.</Text>
        <form onSubmit={submit}>
          <Group align="flex-end">
            <TextInput
              label="Description"
              required
              value={description}
              onChange={(event) => setDescription(event.currentTarget.value)}
              error={fieldError(create.error, 'description')}
            />
            <NativeSelect
              label="Expires in"
              data={EXPIRIES}
              value={days}
              onChange={(event) => setDays(event.currentTarget.value)}
            />
            <Button type="submit" loading={create.isPending} disabled={!description.trim()}>
              Create token
            </Button>
          </Group>
        </form>
        {create.data?.secret ? <SecretOnce label="Service account token" secret={create.data.secret} /> : null}
        <ListTable
          query={tokens}
          label="Service account tokens"
          empty="No tokens yet"
          columns={['Description', 'Expires', 'Last used', '']}
          rowsOf={(data) => data.pats}
          rowKey={(token) => token.id}
          cells={(token) => (
            <>
              <Table.Td>{token.description}</Table.Td>
              <Table.Td>{new Date(token.expiresAt).toLocaleDateString()}</Table.Td>
              <Table.Td>{token.seenAt ? new Date(token.seenAt).toLocaleString() : 'never'}</Table.Td>
              <Table.Td>
                <DeleteButton
                  what={`the token ${token.description}`}
                  title="Delete this token?"
                  message="Scripts using it are refused from now on."
                  onConfirm={() => deleteToken.mutate(token.id)}
                />
              </Table.Td>
            </>
          )}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Done
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function NewAccountForm({ roles }: { roles: Role[] }) {
  const [username, setUsername] = useState('');
  const [name, setName] = useState('');
  const [rootRole, setRootRole] = useState(
    String(roles.find((role) => role.name === 'Editor')?.id ?? roles[0]?.id ?? ''),
  );
  const create = useCreateServiceAccount();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { username: username.trim(), ...(name.trim() ? { name: name.trim() } : {}), rootRole: Number(rootRole) },
      {
        onSuccess: () => {
          setUsername('');
          setName('');
        },
      },
    );
  };
  return (
    <form onSubmit={submit} aria-label="Create a service account">
      <Stack gap="xs">
        <Group align="flex-start" grow>
          <TextInput
            label="Username"
            required
            value={username}
            onChange={(event) => setUsername(event.currentTarget.value)}
            error={fieldError(create.error, 'username')}
          />
          <TextInput label="Name" value={name} onChange={(event) => setName(event.currentTarget.value)} />
          <NativeSelect
            label="Root role"
            value={rootRole}
            onChange={(event) => setRootRole(event.currentTarget.value)}
            data={roles.map((role) => ({ value: String(role.id), label: role.name }))}
          />
        </Group>
        <FormError error={create.error} fields={['username']} />
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending} disabled={!username.trim()}>
            Create service account
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Service accounts: users for machines (scripts, action sets), with tokens of their own. */
export default function ServiceAccountsPage() {
  const admin = usePermission()('ADMIN');
  const accounts = useServiceAccounts(admin.allowed);
  const [tokensOf, setTokensOf] = useState<User | null>(null);
  const deleteAccount = useDeleteServiceAccount();
  if (!admin.allowed)
    return (
      <Guarded reason={admin.reason}>
        <Text>{admin.reason}</Text>
      </Guarded>
    );
  const roleName = (id: number | undefined) => accounts.data?.rootRoles.find((role) => role.id === id)?.name ?? '';
  return (
    <Stack>
      {accounts.data ? <NewAccountForm roles={accounts.data.rootRoles} /> : null}
      <ListTable
        query={accounts}
        label="Service accounts"
        empty="No service accounts yet"
        columns={['Username', 'Name', 'Root role', '']}
        rowsOf={(data) => data.serviceAccounts}
        rowKey={(account) => account.id}
        cells={(account) => (
          <>
            <Table.Td>
              <Button
                variant="subtle"
                size="compact-sm"
                onClick={() => setTokensOf(account)}
                aria-label={`Tokens of ${account.username ?? account.id}`}
              >
                {account.username}
              </Button>
            </Table.Td>
            <Table.Td>{account.name ?? ''}</Table.Td>
            <Table.Td>{roleName(account.rootRole)}</Table.Td>
            <Table.Td>
              <DeleteButton
                what={`the service account ${account.username ?? account.id}`}
                title="Delete this service account?"
                message="Its tokens stop working; action sets acting as it fail."
                onConfirm={() => deleteAccount.mutate(account.id)}
              />
            </Table.Td>
          </>
        )}
      />
      {tokensOf ? <TokensModal account={tokensOf} onClose={() => setTokensOf(null)} /> : null}
    </Stack>
  );
}
