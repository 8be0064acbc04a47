import { Alert, Button, Checkbox, Group, Modal, NativeSelect, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Role } from '@bunting/contracts';
import { fieldError, get, messageOf, post } from '../api/http.ts';
import { useEnvironments } from '../api/reference.ts';
import { usePermission } from '../api/session.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { Guarded } from '../ui/guarded.tsx';
import { notifySaved } from '../ui/notify.ts';
import { useRemoval } from '../ui/use-removal.ts';
import { Empty, Failed, Loading } from '../ui/states.tsx';
import { adminKeys } from '../api/admin-keys.ts';

type PermissionEntry = { name: string; displayName: string };
type Catalogue = { root: PermissionEntry[]; project: PermissionEntry[]; environments: { name: string; permissions: PermissionEntry[] }[] };
type Kind = 'root-custom' | 'custom';

const KIND_LABELS: Record<string, string> = { root: 'Root', 'root-custom': 'Root (custom)', project: 'Project', custom: 'Project (custom)' };

/** A grant as the form keeps it: the permission, and for environment permissions the environment after a colon. */
const grantKey = (name: string, environment?: string) => (environment ? `${name}:${environment}` : name);

function NewRoleModal({ catalogue, onClose }: { catalogue: Catalogue; onClose: () => void }) {
  const queryClient = useQueryClient();
  const environments = useEnvironments();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [kind, setKind] = useState<Kind>('custom');
  const [granted, setGranted] = useState<string[]>([]);
  const create = useMutation({
    mutationFn: () => post('/api/admin/roles', {
      name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}), type: kind,
      permissions: granted.map((key) => {
        const [permission, environment] = key.split(':');
        return environment ? { name: permission!, environment } : { name: permission! };
      }),
    }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.roles });
      notifySaved('Role created');
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const switchKind = (next: Kind) => {
    setKind(next);
    setGranted([]);
  };
  const environmentPermissions = catalogue.environments[0]?.permissions ?? [];
  return (
    <Modal opened onClose={onClose} title="New role" size="xl">
      <form onSubmit={submit}>
        <Stack>
          <Group grow align="flex-start">
            <TextInput label="Name" required value={name} onChange={(event) => setName(event.currentTarget.value)} error={fieldError(create.error, 'name')} data-autofocus />
            <NativeSelect label="Kind" value={kind} onChange={(event) => switchKind(event.currentTarget.value as Kind)}
              data={[{ value: 'custom', label: 'Project role (given per project)' }, { value: 'root-custom', label: 'Root role (across the instance)' }]} />
          </Group>
          <TextInput label="Description" value={description} onChange={(event) => setDescription(event.currentTarget.value)} />
          <Checkbox.Group label="Permissions" value={granted} onChange={setGranted}>
            {kind === 'root-custom' ? (
              <SimpleGrid cols={2} mt="xs" role="group" aria-label="Instance permissions">
                {catalogue.root.map((permission) => <Checkbox key={permission.name} value={permission.name} label={permission.displayName} />)}
              </SimpleGrid>
            ) : (
              <Stack mt="xs">
                <Text fw={600} size="sm">In the project</Text>
                <SimpleGrid cols={2} role="group" aria-label="Project permissions">
                  {catalogue.project.map((permission) => <Checkbox key={permission.name} value={permission.name} label={permission.displayName} />)}
                </SimpleGrid>
                {(environments.data ?? []).map((environment) => (
                  <Stack key={environment.name} gap="xs">
                    <Text fw={600} size="sm">In {environment.name}</Text>
                    <SimpleGrid cols={2} role="group" aria-label={`Permissions in ${environment.name}`}>
                      {environmentPermissions.map((permission) => (
                        <Checkbox key={permission.name} value={grantKey(permission.name, environment.name)} label={permission.displayName} aria-label={`${permission.displayName} in ${environment.name}`} />
                      ))}
                    </SimpleGrid>
                  </Stack>
                ))}
              </Stack>
            )}
          </Checkbox.Group>
          {create.error && !fieldError(create.error, 'name') ? <Alert color="red" role="alert">{messageOf(create.error)}</Alert> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={create.isPending} disabled={!name.trim() || granted.length === 0}>Create role</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Roles: the built-in ones and custom root and project roles, each a set of permissions. */
export default function RolesPage() {
  const admin = usePermission()('ADMIN');
  const roles = useQuery({ queryKey: adminKeys.roles, queryFn: ({ signal }) => get<{ roles: Role[] }>('/api/admin/roles', signal) });
  const catalogue = useQuery({ queryKey: adminKeys.permissions, queryFn: ({ signal }) => get<Catalogue>('/api/admin/permissions', signal) });
  const [creating, setCreating] = useState(false);
  const deleteRole = useRemoval((id: number) => `/api/admin/roles/${id}`, { refresh: [adminKeys.roles], done: 'Role deleted' });
  return (
    <Stack>
      <Group justify="flex-end">
        <Guarded reason={admin.reason}><Button onClick={() => setCreating(true)} disabled={!admin.allowed || !catalogue.data}>New role</Button></Guarded>
      </Group>
      {roles.isPending ? <Loading label="Loading roles" /> : roles.isError ? <Failed error={roles.error} /> : roles.data.roles.length === 0 ? <Empty title="No roles" /> : (
        <Table aria-label="Roles">
          <Table.Thead><Table.Tr><Table.Th>Name</Table.Th><Table.Th>Kind</Table.Th><Table.Th>Description</Table.Th><Table.Th /></Table.Tr></Table.Thead>
          <Table.Tbody>
            {roles.data.roles.map((role) => {
              const custom = role.type === 'custom' || role.type === 'root-custom';
              return (
                <Table.Tr key={role.id}>
                  <Table.Td><Text fw={600} size="sm">{role.name}</Text></Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}><Text size="sm">{KIND_LABELS[role.type] ?? role.type}</Text></Table.Td>
                  <Table.Td><Text size="sm">{role.description ?? ''}</Text></Table.Td>
                  <Table.Td>
                    {custom ? (
                      <ConfirmButton size="compact-sm" variant="subtle" color="red" aria-label={`Delete the role ${role.name}`} disabled={!admin.allowed}
                        title="Delete this role?" message="Who holds it loses its permissions." confirmLabel="Delete" onConfirm={() => deleteRole.mutate(role.id)}>Delete</ConfirmButton>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {creating && catalogue.data ? <NewRoleModal catalogue={catalogue.data} onClose={() => setCreating(false)} /> : null}
    </Stack>
  );
}
