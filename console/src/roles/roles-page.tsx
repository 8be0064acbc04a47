import { Checkbox, Group, NativeSelect, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { fieldError } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { useEnvironments } from '../environments/environment-queries.ts';
import { DeleteButton } from '../ui/delete-button.tsx';
import { CreateButton } from '../ui/create-button.tsx';
import { FormModal } from '../ui/form-modal.tsx';
import { ListTable } from '../ui/list-table.tsx';
import {
  useCreateRole,
  useDeleteRole,
  usePermissionCatalogue,
  useRoles,
  type PermissionCatalogue,
} from './role-queries.ts';

type Catalogue = PermissionCatalogue;
type Kind = 'root-custom' | 'custom';

const KIND_LABELS: Record<string, string> = {
  root: 'Root',
  'root-custom': 'Root (custom)',
  project: 'Project',
  custom: 'Project (custom)',
};

/** A grant as the form keeps it: the permission, and for environment permissions the environment after a colon. */
const grantKey = (name: string, environment?: string) => (environment ? `${name}:${environment}` : name);

function NewRoleModal({ catalogue, onClose }: { catalogue: Catalogue; onClose: () => void }) {
  const environments = useEnvironments();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [kind, setKind] = useState<Kind>('custom');
  const [granted, setGranted] = useState<string[]>([]);
  const create = useCreateRole();
  const submit = () =>
    create.mutate(
      {
        name: name.trim(),
        ...(description.trim() ? { description: description.trim() } : {}),
        type: kind,
        permissions: granted.map((key) => {
          const [permission, environment] = key.split(':');
          return environment ? { name: permission!, environment } : { name: permission! };
        }),
      },
      { onSuccess: onClose },
    );
  const switchKind = (next: Kind) => {
    setKind(next);
    setGranted([]);
  };
  const environmentPermissions = catalogue.environments[0]?.permissions ?? [];
  return (
    <FormModal
      title="New role"
      size="xl"
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Create role"
      pending={create.isPending}
      disabled={!name.trim() || granted.length === 0}
      error={create.error}
      fields={['name', 'description']}
    >
      <Group grow align="flex-start">
        <TextInput
          label="Name"
          required
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={fieldError(create.error, 'name')}
          data-autofocus
        />
        <NativeSelect
          label="Kind"
          value={kind}
          onChange={(event) => switchKind(event.currentTarget.value as Kind)}
          data={[
            { value: 'custom', label: 'Project role (given per project)' },
            { value: 'root-custom', label: 'Root role (across the instance)' },
          ]}
        />
      </Group>
      <TextInput
        label="Description"
        value={description}
        onChange={(event) => setDescription(event.currentTarget.value)}
        error={fieldError(create.error, 'description')}
      />
      <Checkbox.Group label="Permissions" value={granted} onChange={setGranted}>
        {kind === 'root-custom' ? (
          <SimpleGrid cols={2} mt="xs" role="group" aria-label="Instance permissions">
            {catalogue.root.map((permission) => (
              <Checkbox key={permission.name} value={permission.name} label={permission.displayName} />
            ))}
          </SimpleGrid>
        ) : (
          <Stack mt="xs">
            <Text fw={600} size="sm">
              In the project
            </Text>
            <SimpleGrid cols={2} role="group" aria-label="Project permissions">
              {catalogue.project.map((permission) => (
                <Checkbox key={permission.name} value={permission.name} label={permission.displayName} />
              ))}
            </SimpleGrid>
            {(environments.data ?? []).map((environment) => (
              <Stack key={environment.name} gap="xs">
                <Text fw={600} size="sm">
                  In {environment.name}
                </Text>
                <SimpleGrid cols={2} role="group" aria-label={`Permissions in ${environment.name}`}>
                  {environmentPermissions.map((permission) => (
                    <Checkbox
                      key={permission.name}
                      value={grantKey(permission.name, environment.name)}
                      label={permission.displayName}
                      aria-label={`${permission.displayName} in ${environment.name}`}
                    />
                  ))}
                </SimpleGrid>
              </Stack>
            ))}
          </Stack>
        )}
      </Checkbox.Group>
    </FormModal>
  );
}

/** Roles: the built-in ones and custom root and project roles, each a set of permissions. */
export default function RolesPage() {
  const admin = usePermission()('ADMIN');
  const roles = useRoles();
  const catalogue = usePermissionCatalogue();
  const [creating, setCreating] = useState(false);
  const deleteRole = useDeleteRole();
  return (
    <Stack>
      <CreateButton
        permission={{ allowed: admin.allowed && catalogue.data !== undefined, reason: admin.reason }}
        onClick={() => setCreating(true)}
      >
        New role
      </CreateButton>
      <ListTable
        query={roles}
        label="Roles"
        empty="No roles"
        columns={['Name', 'Kind', 'Description', '']}
        rowsOf={(data) => data.roles}
        rowKey={(role) => role.id}
        cells={(role) => {
          const custom = role.type === 'custom' || role.type === 'root-custom';
          return (
            <>
              <Table.Td>
                <Text fw={600} size="sm">
                  {role.name}
                </Text>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <Text size="sm">{KIND_LABELS[role.type] ?? role.type}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{role.description ?? ''}</Text>
              </Table.Td>
              <Table.Td>
                {custom ? (
                  <DeleteButton
                    what={`the role ${role.name}`}
                    disabled={!admin.allowed}
                    title="Delete this role?"
                    message="Who holds it loses its permissions."
                    onConfirm={() => deleteRole.mutate(role.id)}
                  />
                ) : null}
              </Table.Td>
            </>
          );
        }}
      />
      {creating && catalogue.data ? (
        <NewRoleModal catalogue={catalogue.data} onClose={() => setCreating(false)} />
      ) : null}
    </Stack>
  );
}
