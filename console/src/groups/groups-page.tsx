import { Alert, Button, Group, Modal, MultiSelect, NativeSelect, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Role, User } from '@bunting/contracts';
import { fieldError, get, messageOf, post } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { Guarded } from '../ui/guarded.tsx';
import { notifySaved } from '../ui/notify.ts';
import { useRemoval } from '../ui/use-removal.ts';
import { Empty, Failed, Loading } from '../ui/states.tsx';
import { adminKeys } from '../api/admin-keys.ts';

type GroupView = { id: number; name: string; description: string | null; rootRole: number | null; users: { user: User }[] };

const nameOf = (user: User) => user.name ?? user.username ?? user.email ?? `User ${user.id}`;

function NewGroupModal({ users, roles, onClose }: { users: User[]; roles: Role[]; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [members, setMembers] = useState<string[]>([]);
  const [rootRole, setRootRole] = useState('');
  const create = useMutation({
    mutationFn: () => post('/api/admin/groups', {
      name: name.trim(), description: description.trim() || null, rootRole: rootRole ? Number(rootRole) : null,
      users: members.map((id) => ({ user: { id: Number(id) } })),
    }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.groups });
      notifySaved('Group created');
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Modal opened onClose={onClose} title="New group" size="lg">
      <form onSubmit={submit}>
        <Stack>
          <TextInput label="Name" required value={name} onChange={(event) => setName(event.currentTarget.value)} error={fieldError(create.error, 'name')} data-autofocus />
          <TextInput label="Description" value={description} onChange={(event) => setDescription(event.currentTarget.value)} />
          <MultiSelect label="Members" searchable data={users.map((user) => ({ value: String(user.id), label: nameOf(user) }))} value={members} onChange={setMembers} />
          <NativeSelect label="Root role" description="Optional: what members may do across the instance; project roles are given per project"
            value={rootRole} onChange={(event) => setRootRole(event.currentTarget.value)}
            data={[{ value: '', label: 'None' }, ...roles.map((role) => ({ value: String(role.id), label: role.name }))]} />
          {create.error && !fieldError(create.error, 'name') ? <Alert color="red" role="alert">{messageOf(create.error)}</Alert> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={create.isPending} disabled={!name.trim()}>Create group</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Groups of users: members, an optional root role; projects give a group a role on their access page. */
export default function GroupsPage() {
  const admin = usePermission()('ADMIN');
  const groups = useQuery({ queryKey: adminKeys.groups, queryFn: ({ signal }) => get<{ groups: GroupView[] }>('/api/admin/groups', signal) });
  const users = useQuery({ queryKey: adminKeys.users, queryFn: ({ signal }) => get<{ users: User[]; rootRoles: Role[] }>('/api/admin/user-admin', signal), enabled: admin.allowed, refetchOnMount: 'always' });
  const [creating, setCreating] = useState(false);
  const deleteGroup = useRemoval((id: number) => `/api/admin/groups/${id}`, { refresh: [adminKeys.groups], done: 'Group deleted' });
  const roleName = (id: number | null) => (id === null ? '' : users.data?.rootRoles.find((role) => role.id === id)?.name ?? String(id));
  return (
    <Stack>
      <Group justify="flex-end">
        <Guarded reason={admin.reason}><Button onClick={() => setCreating(true)} disabled={!admin.allowed || !users.data}>New group</Button></Guarded>
      </Group>
      {groups.isPending ? <Loading label="Loading groups" /> : groups.isError ? <Failed error={groups.error} /> : groups.data.groups.length === 0 ? <Empty title="No groups yet" /> : (
        <Table aria-label="Groups">
          <Table.Thead><Table.Tr><Table.Th>Name</Table.Th><Table.Th>Members</Table.Th><Table.Th>Root role</Table.Th><Table.Th /></Table.Tr></Table.Thead>
          <Table.Tbody>
            {groups.data.groups.map((group) => (
              <Table.Tr key={group.id}>
                <Table.Td><Text fw={600} size="sm">{group.name}</Text><Text size="xs" c="dimmed">{group.description ?? ''}</Text></Table.Td>
                <Table.Td><Text size="sm">{group.users.map(({ user }) => nameOf(user)).join(', ')}</Text></Table.Td>
                <Table.Td>{roleName(group.rootRole)}</Table.Td>
                <Table.Td>
                  <ConfirmButton size="compact-sm" variant="subtle" color="red" aria-label={`Delete the group ${group.name}`} disabled={!admin.allowed}
                    title="Delete this group?" message="Its members lose what the group gave them." confirmLabel="Delete" onConfirm={() => deleteGroup.mutate(group.id)}>Delete</ConfirmButton>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {creating && users.data ? <NewGroupModal users={users.data.users} roles={users.data.rootRoles} onClose={() => setCreating(false)} /> : null}
    </Stack>
  );
}
