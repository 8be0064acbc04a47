import { Alert, Anchor, Button, Group, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { messageOf } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { useGroups } from '../groups/group-queries.ts';
import { useUsers } from '../users/user-queries.ts';
import { projectPage } from '../ui/addresses.ts';
import { DeleteButton } from '../ui/delete-button.tsx';
import { Empty, Failed, Loading } from '../ui/states.tsx';
import { useGiveAccess, useProjectAccess, useTakeAccess } from './project-access-queries.ts';

type Person = { id: number; name?: string | null; username?: string | null; email?: string | null };
const nameOf = (user: Person) => user.name ?? user.username ?? user.email ?? `User ${user.id}`;

/** Who may do what in one project: users and groups with project roles (Unleash's project access). */
export default function ProjectAccessPage() {
  const project = useParams().projectId ?? '';
  const write = usePermission()('PROJECT_USER_ACCESS_WRITE', { project });
  const access = useProjectAccess(project);
  const users = useUsers({ fresh: true });
  const groups = useGroups();
  const [subject, setSubject] = useState('');
  const [roleId, setRoleId] = useState('');
  const give = useGiveAccess(project);
  const take = useTakeAccess(project);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const [kind, id] = subject.split(':');
    give.mutate(
      {
        roles: [Number(roleId)],
        users: kind === 'user' ? [Number(id)] : [],
        groups: kind === 'group' ? [Number(id)] : [],
      },
      { onSuccess: () => setSubject('') },
    );
  };
  const roleNames = (ids: number[]) =>
    ids.map((id) => access.data?.roles.find((role) => role.id === id)?.name ?? String(id)).join(', ');
  const rows = [
    ...(access.data?.groups ?? []).map((group) => ({
      key: `group:${group.id}`,
      kind: 'groups' as const,
      id: group.id,
      name: group.name,
      type: 'Group',
      roles: group.roles,
    })),
    ...(access.data?.users ?? []).map((user) => ({
      key: `user:${user.id}`,
      kind: 'users' as const,
      id: user.id,
      name: nameOf(user),
      type: 'User',
      roles: user.roles,
    })),
  ];
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        <Anchor component={Link} to="/projects">
          Projects
        </Anchor>{' '}
        /{' '}
        <Anchor component={Link} to={projectPage(project)}>
          {project}
        </Anchor>
      </Text>
      <Title order={1}>Access</Title>
      {write.allowed ? (
        <form onSubmit={submit} aria-label="Give access">
          <Group align="flex-end">
            <NativeSelect
              label="User or group"
              value={subject}
              onChange={(event) => setSubject(event.currentTarget.value)}
              data={[
                { value: '', label: 'Choose' },
                {
                  group: 'Groups',
                  items: (groups.data?.groups ?? []).map((group) => ({
                    value: `group:${group.id}`,
                    label: group.name,
                  })),
                },
                {
                  group: 'Users',
                  items: (users.data?.users ?? []).map((user) => ({ value: `user:${user.id}`, label: nameOf(user) })),
                },
              ]}
            />
            <NativeSelect
              label="Project role"
              value={roleId}
              onChange={(event) => setRoleId(event.currentTarget.value)}
              data={[
                { value: '', label: 'Choose' },
                ...(access.data?.roles ?? []).map((role) => ({ value: String(role.id), label: role.name })),
              ]}
            />
            <Button type="submit" loading={give.isPending} disabled={!subject || !roleId}>
              Give access
            </Button>
          </Group>
          {give.error ? (
            <Alert mt="xs" color="red" role="alert">
              {messageOf(give.error)}
            </Alert>
          ) : null}
        </form>
      ) : (
        <Text size="sm">{write.reason}</Text>
      )}
      {access.isPending ? (
        <Loading label="Loading access" />
      ) : access.isError ? (
        <Failed error={access.error} />
      ) : rows.length === 0 ? (
        <Empty title="Nobody has a role in this project yet" />
      ) : (
        <Table aria-label="Project access">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Roles</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.key}>
                <Table.Td>{row.name}</Table.Td>
                <Table.Td>{row.type}</Table.Td>
                <Table.Td>{roleNames(row.roles)}</Table.Td>
                <Table.Td>
                  <DeleteButton
                    verb="Remove"
                    what={`the access of ${row.name}`}
                    disabled={!write.allowed}
                    title="Remove this access?"
                    message={`${row.name} loses its roles in this project.`}
                    onConfirm={() => take.mutate({ kind: row.kind, id: row.id })}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
