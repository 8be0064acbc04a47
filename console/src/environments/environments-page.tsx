import { ActionIcon, Badge, Button, Group, Modal, Select, Stack, Switch, Table, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Environment } from '@bunting/contracts';
import { fieldError, get, post, put } from '../api/http.ts';
import { referenceKeys } from '../api/keys.ts';
import { usePermission } from '../api/session.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { Guarded } from '../ui/guarded.tsx';
import { notifyFailed, notifySaved } from '../ui/notify.ts';
import { useRemoval } from '../ui/use-removal.ts';
import { Failed, Loading } from '../ui/states.tsx';
import { movedOrder } from '../strategy-definitions/strategy-summary.ts';
import { adminKeys } from '../api/admin-keys.ts';

const ENVIRONMENT_TYPES = ['development', 'test', 'preproduction', 'production'];

function EnvironmentModal({ cloneOf, onClose }: { cloneOf?: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [type, setType] = useState('development');
  const save = useMutation({
    mutationFn: () => post(cloneOf ? `/api/admin/environments/${encodeURIComponent(cloneOf)}/clone` : '/api/admin/environments', { name, type }),
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: adminKeys.environments }), queryClient.invalidateQueries({ queryKey: referenceKeys.environments })]);
      notifySaved(cloneOf ? `${name} cloned from ${cloneOf}` : `Environment ${name} created`);
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Modal opened onClose={onClose} title={cloneOf ? `Clone ${cloneOf}` : 'New environment'}>
      <form onSubmit={submit}>
        <Stack>
          <TextInput label="Name" description="Letters, digits, ~ _ . -" required value={name} onChange={(event) => setName(event.currentTarget.value)} error={fieldError(save.error, 'name') ?? (save.error ? save.error.message : undefined)} data-autofocus />
          <Select label="Type" allowDeselect={false} data={ENVIRONMENT_TYPES} value={type} onChange={(value) => value && setType(value)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={save.isPending} disabled={!name.trim()}>{cloneOf ? 'Clone' : 'Create'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Environments: made, cloned with their flags' configuration, switched off (SDKs then get nothing there), removed. */
export default function EnvironmentsPage() {
  const queryClient = useQueryClient();
  const can = usePermission();
  const create = can('CREATE_ENVIRONMENT');
  const update = can('UPDATE_ENVIRONMENT');
  const environments = useQuery({ queryKey: adminKeys.environments, queryFn: ({ signal }) => get<{ environments: Environment[] }>('/api/admin/environments', signal) });
  const [modal, setModal] = useState<{ cloneOf?: string } | null>(null);
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: adminKeys.environments }), queryClient.invalidateQueries({ queryKey: referenceKeys.environments })]);
  const toggle = useMutation({
    mutationFn: ({ name, enabled }: { name: string; enabled: boolean }) => post(`/api/admin/environments/${encodeURIComponent(name)}/${enabled ? 'on' : 'off'}`),
    onSuccess: () => void refresh(),
    onError: (error) => notifyFailed(error),
  });
  // The order here is the order of environments everywhere: on flag pages, in tables, in SDK-facing lists.
  const reorder = useMutation({
    mutationFn: ({ name, by }: { name: string; by: -1 | 1 }) => {
      const order = movedOrder(environments.data!.environments.map((environment) => ({ id: environment.name })), name, by);
      return put('/api/admin/environments/sort-order', Object.fromEntries(order.map(({ id, sortOrder }) => [id, sortOrder])));
    },
    onSuccess: () => refresh(),
    onError: (error) => notifyFailed(error),
  });
  const deleteEnvironment = useRemoval((name: string) => `/api/admin/environments/${encodeURIComponent(name)}`,
    { refresh: [adminKeys.environments, referenceKeys.environments], done: 'Environment removed', failed: 'Not removed' });
  if (environments.isPending) return <Loading label="Loading environments" />;
  if (environments.isError) return <Failed error={environments.error} />;
  return (
    <Stack>
      <Group justify="flex-end">
        <Guarded reason={create.reason}><Button onClick={() => setModal({})} disabled={!create.allowed}>New environment</Button></Guarded>
      </Group>
      <Table aria-label="Environments">
        <Table.Thead><Table.Tr><Table.Th>Name</Table.Th><Table.Th>Type</Table.Th><Table.Th ta="right">Projects</Table.Th><Table.Th ta="right">Flags on</Table.Th><Table.Th ta="right">API tokens</Table.Th><Table.Th>Enabled</Table.Th><Table.Th /></Table.Tr></Table.Thead>
        <Table.Tbody>
          {environments.data.environments.map((environment, index, all) => (
            <Table.Tr key={environment.name}>
              <Table.Td>{environment.name} {environment.protected ? <Badge size="xs" variant="light" color="gray">protected</Badge> : null}</Table.Td>
              <Table.Td>{environment.type}</Table.Td>
              <Table.Td ta="right">{environment.projectCount}</Table.Td>
              <Table.Td ta="right">{environment.enabledToggleCount}</Table.Td>
              <Table.Td ta="right">{environment.apiTokenCount}</Table.Td>
              <Table.Td><Switch aria-label={`${environment.name} enabled`} checked={environment.enabled} disabled={!update.allowed} onChange={(event) => toggle.mutate({ name: environment.name, enabled: event.currentTarget.checked })} /></Table.Td>
              <Table.Td>
                <Group gap="xs" justify="flex-end" wrap="nowrap">
                  <ActionIcon variant="subtle" aria-label={`Move ${environment.name} up`} disabled={!update.allowed || index === 0 || reorder.isPending} onClick={() => reorder.mutate({ name: environment.name, by: -1 })}>↑</ActionIcon>
                  <ActionIcon variant="subtle" aria-label={`Move ${environment.name} down`} disabled={!update.allowed || index === all.length - 1 || reorder.isPending} onClick={() => reorder.mutate({ name: environment.name, by: 1 })}>↓</ActionIcon>
                  <Button size="compact-sm" variant="subtle" aria-label={`Clone ${environment.name}`} disabled={!create.allowed} onClick={() => setModal({ cloneOf: environment.name })}>Clone</Button>
                  {environment.protected ? null : (
                    <ConfirmButton size="compact-sm" variant="subtle" color="red" aria-label={`Remove ${environment.name}`} disabled={!can('DELETE_ENVIRONMENT').allowed}
                      title={`Remove ${environment.name}?`} message="Every flag's configuration there goes with it." confirmLabel="Remove" onConfirm={() => deleteEnvironment.mutate(environment.name)}>Remove</ConfirmButton>
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {modal ? <EnvironmentModal {...(modal.cloneOf ? { cloneOf: modal.cloneOf } : {})} onClose={() => setModal(null)} /> : null}
    </Stack>
  );
}
