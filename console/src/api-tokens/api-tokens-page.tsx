import { Alert, Badge, Button, Group, Modal, MultiSelect, NativeSelect, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ApiToken } from '@bunting/contracts';
import { fieldError, get, messageOf, post, put } from '../api/http.ts';
import { useEnvironments } from '../api/reference.ts';
import { usePermission } from '../api/session.ts';
import { useProjects } from '../projects/project-queries.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { Guarded } from '../ui/guarded.tsx';
import { notifyFailed, notifySaved } from '../ui/notify.ts';
import { useRemoval } from '../ui/use-removal.ts';
import { SecretOnce } from '../ui/secret-once.tsx';
import { Empty, Failed, Loading } from '../ui/states.tsx';
import { adminKeys } from '../api/admin-keys.ts';

const TYPES = [
  { value: 'client', label: 'Backend (server SDKs, /api/client)' },
  { value: 'frontend', label: 'Frontend (browser SDKs, /api/frontend)' },
  { value: 'admin', label: 'Admin (scripts, the whole admin API)' },
];

function CreateTokenModal({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const environments = useEnvironments();
  const projects = useProjects();
  const [name, setName] = useState('');
  const [type, setType] = useState('client');
  const [environment, setEnvironment] = useState('development');
  const [chosen, setChosen] = useState<string[]>([]);
  const create = useMutation({
    mutationFn: () => post<ApiToken>('/api/admin/api-tokens', {
      tokenName: name, type, ...(type === 'admin' ? {} : { environment, projects: chosen.length > 0 ? chosen : ['*'] }),
    }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: adminKeys.tokens }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  if (create.data?.secret) {
    return (
      <Modal opened onClose={onClose} title="Token created">
        <Stack>
          <SecretOnce label="API token" secret={create.data.secret} />
          <Group justify="flex-end"><Button onClick={onClose}>Done</Button></Group>
        </Stack>
      </Modal>
    );
  }
  const error = create.error;
  return (
    <Modal opened onClose={onClose} title="New API token">
      <form onSubmit={submit}>
        <Stack>
          <TextInput label="Name" required value={name} onChange={(event) => setName(event.currentTarget.value)} error={fieldError(error, 'tokenName')} data-autofocus />
          <Select label="Type" allowDeselect={false} data={TYPES} value={type} onChange={(value) => value && setType(value)} />
          {type === 'admin' ? null : (
            <>
              <Select label="Environment" allowDeselect={false} data={(environments.data ?? []).map((item) => item.name)} value={environment} onChange={(value) => value && setEnvironment(value)} error={fieldError(error, 'environment')} />
              <MultiSelect label="Projects" description="None chosen: every project" data={(projects.data?.projects ?? []).map((item) => ({ value: item.id, label: item.name }))} value={chosen} onChange={setChosen} error={fieldError(error, 'projects')} />
            </>
          )}
          {error && !fieldError(error, 'tokenName') && !fieldError(error, 'environment') && !fieldError(error, 'projects') ? <Alert color="red" role="alert">{messageOf(error)}</Alert> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={create.isPending} disabled={!name.trim()}>Create token</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** API tokens of every kind: the secret is shown once, when made; afterwards a token is named by its id. */
export default function ApiTokensPage() {
  const queryClient = useQueryClient();
  const can = usePermission();
  const creatable = can('CREATE_CLIENT_API_TOKEN');
  const tokens = useQuery({ queryKey: adminKeys.tokens, queryFn: ({ signal }) => get<{ tokens: ApiToken[] }>('/api/admin/api-tokens', signal) });
  const [creating, { open, close }] = useDisclosure(false);
  const deleteToken = useRemoval((id: number) => `/api/admin/api-tokens/${encodeURIComponent(`id:${id}`)}`, { refresh: [adminKeys.tokens], done: 'Token deleted: it stops working at once' });
  const setExpiry = useMutation({
    mutationFn: ({ id, days }: { id: number; days: number }) => put(`/api/admin/api-tokens/${encodeURIComponent(`id:${id}`)}`, { expiresAt: new Date(Date.now() + days * 86_400_000).toISOString() }),
    onSuccess: () => { void queryClient.invalidateQueries({ queryKey: adminKeys.tokens }); notifySaved('Expiry changed'); },
    onError: (error) => notifyFailed(error, 'Not changed'),
  });
  return (
    <Stack>
      <Group justify="flex-end">
        <Guarded reason={creatable.reason}><Button onClick={open} disabled={!creatable.allowed}>New API token</Button></Guarded>
      </Group>
      {tokens.isPending ? <Loading label="Loading API tokens" /> : tokens.isError ? <Failed error={tokens.error} /> : tokens.data.tokens.length === 0 ? <Empty title="No API tokens" /> : (
        <Table aria-label="API tokens">
          <Table.Thead><Table.Tr><Table.Th>Name</Table.Th><Table.Th>Type</Table.Th><Table.Th>Projects</Table.Th><Table.Th>Environment</Table.Th><Table.Th>Expires</Table.Th><Table.Th>Last used</Table.Th><Table.Th /></Table.Tr></Table.Thead>
          <Table.Tbody>
            {tokens.data.tokens.map((token) => (
              <Table.Tr key={token.id ?? token.createdAt}>
                <Table.Td>{token.tokenName}</Table.Td>
                <Table.Td><Badge variant="light" color={token.type === 'admin' ? 'red' : token.type === 'frontend' ? 'grape' : 'blue'}>{token.type}</Badge></Table.Td>
                <Table.Td><Text size="sm">{token.projects.join(', ')}</Text></Table.Td>
                <Table.Td>{token.environment}</Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Text size="sm">{token.expiresAt ? new Date(token.expiresAt).toLocaleDateString() : 'never'}</Text>
                    {token.id !== undefined ? (
                      <NativeSelect size="xs" aria-label={`New expiry of ${token.tokenName}`} value="" disabled={!can('UPDATE_CLIENT_API_TOKEN').allowed}
                        onChange={(event) => event.currentTarget.value && setExpiry.mutate({ id: token.id!, days: Number(event.currentTarget.value) })}
                        data={[{ value: '', label: 'Change…' }, { value: '30', label: 'in 30 days' }, { value: '90', label: 'in 90 days' }, { value: '365', label: 'in a year' }]} />
                    ) : null}
                  </Group>
                </Table.Td>
                <Table.Td>{token.seenAt ? new Date(token.seenAt).toLocaleString() : 'never'}</Table.Td>
                <Table.Td>
                  {token.id !== undefined ? (
                    <ConfirmButton size="compact-sm" variant="subtle" color="red" aria-label={`Delete the token ${token.tokenName}`} disabled={!can('DELETE_CLIENT_API_TOKEN').allowed}
                      title={`Delete ${token.tokenName}?`} message="Every SDK or script using it is refused from then on." confirmLabel="Delete" onConfirm={() => deleteToken.mutate(token.id!)}>Delete</ConfirmButton>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {creating ? <CreateTokenModal onClose={close} /> : null}
    </Stack>
  );
}
