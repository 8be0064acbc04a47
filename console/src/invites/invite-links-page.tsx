import { Badge, Button, Group, Stack, Table, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { fieldError, get, post, put } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { Guarded } from '../ui/guarded.tsx';
import { notifyFailed, notifySaved } from '../ui/notify.ts';
import { SecretOnce } from '../ui/secret-once.tsx';
import { Empty, Failed, Loading } from '../ui/states.tsx';
import { adminKeys } from '../api/admin-keys.ts';

type InviteLink = { secret: string; url: string; name: string; enabled: boolean; expiresAt: string; createdAt: string; users?: unknown[] };

/** Links anyone may sign up with (as a Viewer) until they expire: made here, shared by the admin. */
export default function InviteLinksPage() {
  const queryClient = useQueryClient();
  const admin = usePermission()('ADMIN');
  const links = useQuery({ queryKey: adminKeys.invites, queryFn: ({ signal }) => get<{ tokens: InviteLink[] }>('/api/admin/invite-link/tokens', signal) });
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => post<InviteLink>('/api/admin/invite-link/tokens', { name, expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString() }),
    onSuccess: () => { void queryClient.invalidateQueries({ queryKey: adminKeys.invites }); setName(''); },
  });
  const disable = useMutation({
    mutationFn: (secret: string) => put(`/api/admin/invite-link/tokens/${encodeURIComponent(secret)}`, { enabled: false }),
    onSuccess: () => { void queryClient.invalidateQueries({ queryKey: adminKeys.invites }); notifySaved('Invite link disabled'); },
    onError: (error) => notifyFailed(error),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Stack>
      <form onSubmit={submit}>
        <Group align="flex-end">
          <TextInput label="New invite link" placeholder="Who it is for, e.g. Support team" w={320} value={name} onChange={(event) => setName(event.currentTarget.value)} error={fieldError(create.error, 'name')} />
          <Guarded reason={admin.reason}><Button type="submit" disabled={!admin.allowed || !name.trim()} loading={create.isPending}>Create link (valid 7 days)</Button></Guarded>
        </Group>
      </form>
      {create.data ? <SecretOnce label="Invite link" secret={create.data.url} /> : null}
      {links.isPending ? <Loading label="Loading invite links" /> : links.isError ? <Failed error={links.error} /> : links.data.tokens.length === 0 ? <Empty title="No invite links" /> : (
        <Table aria-label="Invite links">
          <Table.Thead><Table.Tr><Table.Th>Name</Table.Th><Table.Th>Expires</Table.Th><Table.Th>Signed up</Table.Th><Table.Th>State</Table.Th><Table.Th /></Table.Tr></Table.Thead>
          <Table.Tbody>
            {links.data.tokens.map((link) => {
              const expired = Date.parse(link.expiresAt) <= Date.now();
              return (
                <Table.Tr key={link.secret}>
                  <Table.Td>{link.name}</Table.Td>
                  <Table.Td>{new Date(link.expiresAt).toLocaleString()}</Table.Td>
                  <Table.Td>{link.users?.length ?? 0}</Table.Td>
                  <Table.Td><Badge variant="light" color={link.enabled && !expired ? 'green' : 'gray'}>{!link.enabled ? 'disabled' : expired ? 'expired' : 'active'}</Badge></Table.Td>
                  <Table.Td>{link.enabled && !expired ? <Button size="compact-sm" variant="subtle" color="red" aria-label={`Disable the invite link ${link.name}`} disabled={!admin.allowed} onClick={() => disable.mutate(link.secret)}>Disable</Button> : null}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
