import { Badge, MultiSelect, NativeSelect, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { Role, User } from '@bunting/contracts';
import { fieldError } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { useUsers } from '../users/user-queries.ts';
import { DeleteButton } from '../ui/delete-button.tsx';
import { CreateButton } from '../ui/create-button.tsx';
import { FormModal } from '../ui/form-modal.tsx';
import { ListTable } from '../ui/list-table.tsx';
import { useCreateGroup, useDeleteGroup, useGroups } from './group-queries.ts';

const nameOf = (user: User) => user.name ?? user.username ?? user.email ?? `User ${user.id}`;

function NewGroupModal({ users, roles, onClose }: { users: User[]; roles: Role[]; onClose: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [members, setMembers] = useState<string[]>([]);
  const [rootRole, setRootRole] = useState('');
  const create = useCreateGroup();
  const submit = () =>
    create.mutate(
      {
        name: name.trim(),
        description: description.trim() || null,
        rootRole: rootRole ? Number(rootRole) : null,
        users: members.map((id) => ({ user: { id: Number(id) } })),
      },
      { onSuccess: onClose },
    );
  return (
    <FormModal
      title="New group"
      size="lg"
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Create group"
      pending={create.isPending}
      disabled={!name.trim()}
      error={create.error}
      fields={['name', 'description']}
    >
      <TextInput
        label="Name"
        required
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={fieldError(create.error, 'name')}
        data-autofocus
      />
      <TextInput
        label="Description"
        value={description}
        onChange={(event) => setDescription(event.currentTarget.value)}
        error={fieldError(create.error, 'description')}
      />
      <MultiSelect
        label="Members"
        searchable
        data={users.map((user) => ({ value: String(user.id), label: nameOf(user) }))}
        value={members}
        onChange={setMembers}
      />
      <NativeSelect
        label="Root role"
        description="Optional: what members may do across the instance; project roles are given per project"
        value={rootRole}
        onChange={(event) => setRootRole(event.currentTarget.value)}
        data={[{ value: '', label: 'None' }, ...roles.map((role) => ({ value: String(role.id), label: role.name }))]}
      />
    </FormModal>
  );
}

/** Groups of users: members, an optional root role; projects give a group a role on their access page. */
export default function GroupsPage() {
  const admin = usePermission()('ADMIN');
  const groups = useGroups();
  const users = useUsers({ fresh: true });
  const [creating, setCreating] = useState(false);
  const deleteGroup = useDeleteGroup();
  const roleName = (id: number | null | undefined) =>
    id === null || id === undefined ? '' : (users.data?.rootRoles?.find((role) => role.id === id)?.name ?? String(id));
  return (
    <Stack>
      <CreateButton
        permission={{ allowed: admin.allowed && users.data !== undefined, reason: admin.reason }}
        onClick={() => setCreating(true)}
      >
        New group
      </CreateButton>
      <ListTable
        query={groups}
        label="Groups"
        empty="No groups yet"
        columns={['Name', 'Members', 'Root role', '']}
        rowsOf={(data) => data.groups}
        rowKey={(group) => group.id}
        cells={(group) => (
          <>
            <Table.Td>
              <Text fw={600} size="sm">
                {group.name}{' '}
                {group.scimId ? (
                  <Badge size="xs" variant="light" color="grape">
                    SCIM
                  </Badge>
                ) : null}
              </Text>
              <Text size="xs" c="dimmed">
                {group.description ?? ''}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{group.users.map(({ user }) => nameOf(user)).join(', ')}</Text>
            </Table.Td>
            <Table.Td>{roleName(group.rootRole)}</Table.Td>
            <Table.Td>
              <DeleteButton
                what={`the group ${group.name}`}
                disabled={!admin.allowed || group.scimId !== null}
                title="Delete this group?"
                message="Its members lose what the group gave them."
                onConfirm={() => deleteGroup.mutate(group.id)}
              />
            </Table.Td>
          </>
        )}
      />
      {creating && users.data ? (
        <NewGroupModal users={users.data.users} roles={users.data.rootRoles ?? []} onClose={() => setCreating(false)} />
      ) : null}
    </Stack>
  );
}
