import { ActionIcon, Badge, Button, Group, Select, Stack, Table, TextInput, Switch } from '@mantine/core';
import { useState } from 'react';
import { fieldError } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { movedOrder } from '../strategy-definitions/strategy-summary.ts';
import { DeleteButton } from '../ui/delete-button.tsx';
import { CreateButton } from '../ui/create-button.tsx';
import { FormModal } from '../ui/form-modal.tsx';
import { ListTable } from '../ui/list-table.tsx';
import {
  useEnvironments,
  useRemoveEnvironment,
  useSaveEnvironment,
  useSortEnvironments,
  useSwitchEnvironment,
} from './environment-queries.ts';

const ENVIRONMENT_TYPES = ['development', 'test', 'preproduction', 'production'];

function EnvironmentModal({ cloneOf, onClose }: { cloneOf?: string | undefined; onClose: () => void }) {
  const [name, setName] = useState('');
  const [type, setType] = useState('development');
  const save = useSaveEnvironment(cloneOf);
  return (
    <FormModal
      title={cloneOf ? `Clone ${cloneOf}` : 'New environment'}
      onClose={onClose}
      onSubmit={() => save.mutate({ name, type }, { onSuccess: onClose })}
      submitLabel={cloneOf ? 'Clone' : 'Create'}
      pending={save.isPending}
      disabled={!name.trim()}
      error={save.error}
      fields={['name', 'type']}
    >
      <TextInput
        label="Name"
        description="Letters, digits, ~ _ . -"
        required
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={fieldError(save.error, 'name')}
        data-autofocus
      />
      <Select
        label="Type"
        allowDeselect={false}
        data={ENVIRONMENT_TYPES}
        value={type}
        onChange={(value) => value && setType(value)}
        error={fieldError(save.error, 'type')}
      />
    </FormModal>
  );
}

/** Environments: made, cloned with their flags' configuration, switched off (SDKs then get nothing there), removed. */
export default function EnvironmentsPage() {
  const can = usePermission();
  const create = can('CREATE_ENVIRONMENT');
  const update = can('UPDATE_ENVIRONMENT');
  const environments = useEnvironments();
  const [modal, setModal] = useState<{ cloneOf?: string } | null>(null);
  const toggle = useSwitchEnvironment();
  const sort = useSortEnvironments();
  const remove = useRemoveEnvironment();
  const move = (name: string, by: -1 | 1) => {
    const order = movedOrder(
      (environments.data ?? []).map((environment) => ({ id: environment.name })),
      name,
      by,
    );
    sort.mutate(Object.fromEntries(order.map(({ id, sortOrder }) => [id, sortOrder])));
  };
  return (
    <Stack>
      <CreateButton permission={create} onClick={() => setModal({})}>
        New environment
      </CreateButton>
      <ListTable
        query={environments}
        label="Environments"
        empty="No environments"
        columns={[
          'Name',
          'Type',
          { label: 'Projects', numeric: true },
          { label: 'Flags on', numeric: true },
          { label: 'API tokens', numeric: true },
          'Enabled',
          '',
        ]}
        rowKey={(environment) => environment.name}
        cells={(environment, index, all) => (
          <>
            <Table.Td>
              {environment.name}{' '}
              {environment.protected ? (
                <Badge size="xs" variant="light" color="gray">
                  protected
                </Badge>
              ) : null}
            </Table.Td>
            <Table.Td>{environment.type}</Table.Td>
            <Table.Td ta="right">{environment.projectCount}</Table.Td>
            <Table.Td ta="right">{environment.enabledToggleCount}</Table.Td>
            <Table.Td ta="right">{environment.apiTokenCount}</Table.Td>
            <Table.Td>
              <Switch
                aria-label={`${environment.name} enabled`}
                checked={environment.enabled}
                disabled={!update.allowed}
                onChange={(event) => toggle.mutate({ name: environment.name, enabled: event.currentTarget.checked })}
              />
            </Table.Td>
            <Table.Td>
              <Group gap="xs" justify="flex-end" wrap="nowrap">
                <ActionIcon
                  variant="subtle"
                  aria-label={`Move ${environment.name} up`}
                  disabled={!update.allowed || index === 0 || sort.isPending}
                  onClick={() => move(environment.name, -1)}
                >
                  ↑
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  aria-label={`Move ${environment.name} down`}
                  disabled={!update.allowed || index === all.length - 1 || sort.isPending}
                  onClick={() => move(environment.name, 1)}
                >
                  ↓
                </ActionIcon>
                <Button
                  size="compact-sm"
                  variant="subtle"
                  aria-label={`Clone ${environment.name}`}
                  disabled={!create.allowed}
                  onClick={() => setModal({ cloneOf: environment.name })}
                >
                  Clone
                </Button>
                {environment.protected ? null : (
                  <DeleteButton
                    verb="Remove"
                    what={environment.name}
                    disabled={!can('DELETE_ENVIRONMENT').allowed}
                    title={`Remove ${environment.name}?`}
                    message="Every flag's configuration there goes with it."
                    onConfirm={() => remove.mutate(environment.name)}
                  />
                )}
              </Group>
            </Table.Td>
          </>
        )}
      />
      {modal ? <EnvironmentModal cloneOf={modal.cloneOf} onClose={() => setModal(null)} /> : null}
    </Stack>
  );
}
