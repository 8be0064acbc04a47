import { Alert, Badge, Button, Code, Group, Modal, MultiSelect, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { EVENT_TYPES, type Addon } from '@bunting/contracts';
import { fieldError, get, messageOf, post, put } from '../api/http.ts';
import { useEnvironments } from '../api/reference.ts';
import { usePermission } from '../api/session.ts';
import { useProjects } from '../projects/project-queries.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { Guarded } from '../ui/guarded.tsx';
import { notifyFailed, notifySaved } from '../ui/notify.ts';
import { useRemoval } from '../ui/use-removal.ts';
import { Empty, Failed, Loading } from '../ui/states.tsx';
import { adminKeys } from '../api/admin-keys.ts';

type Delivery = { id: string; state: string; stateDetails: string; createdAt: string; event: { type?: string } };

function WebhookModal({ addon, onClose }: { addon: Addon | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const projects = useProjects();
  const environments = useEnvironments();
  const parameters = (addon?.parameters ?? {}) as Record<string, string>;
  const [url, setUrl] = useState(parameters.url ?? '');
  const [authorization, setAuthorization] = useState(parameters.authorization ?? '');
  const [events, setEvents] = useState<string[]>(addon?.events ?? ['feature-environment-enabled', 'feature-environment-disabled']);
  const [projectFilter, setProjectFilter] = useState<string[]>(addon?.projects ?? []);
  const [environmentFilter, setEnvironmentFilter] = useState<string[]>(addon?.environments ?? []);
  const deliveries = useQuery({ queryKey: adminKeys.deliveries(addon?.id ?? 0), queryFn: ({ signal }) => get<{ integrationEvents: Delivery[] }>(`/api/admin/addons/${addon!.id}/events`, signal), enabled: addon !== null, refetchInterval: 3000 });
  const save = useMutation({
    mutationFn: () => {
      const body = {
        provider: 'webhook', enabled: addon?.enabled ?? true, description: addon?.description ?? null, events, projects: projectFilter, environments: environmentFilter,
        // A masked secret sent back unchanged keeps the stored one.
        parameters: { url, ...(authorization ? { authorization } : {}) },
      };
      return addon ? put(`/api/admin/addons/${addon.id}`, body) : post('/api/admin/addons', body);
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.addons });
      notifySaved('Webhook saved');
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Modal opened onClose={onClose} title={addon ? 'Webhook' : 'New webhook'} size="lg">
      <form onSubmit={submit}>
        <Stack>
          <TextInput label="URL" required placeholder="https://hooks.example.com/bunting" value={url} onChange={(event) => setUrl(event.currentTarget.value)} error={fieldError(save.error, 'parameters.url')} data-autofocus />
          <TextInput label="Authorization header" description="Sent with each delivery; shown masked once saved" value={authorization} onChange={(event) => setAuthorization(event.currentTarget.value)} />
          <MultiSelect label="Events" searchable required data={[...EVENT_TYPES]} value={events} onChange={setEvents} error={fieldError(save.error, 'events')} />
          <MultiSelect label="Only these projects" description="None chosen: every project" data={(projects.data?.projects ?? []).map((item) => ({ value: item.id, label: item.name }))} value={projectFilter} onChange={setProjectFilter} />
          <MultiSelect label="Only these environments" description="None chosen: every environment" data={(environments.data ?? []).map((item) => item.name)} value={environmentFilter} onChange={setEnvironmentFilter} />
          {save.error && !fieldError(save.error, 'parameters.url') ? <Alert color="red" role="alert">{messageOf(save.error)}</Alert> : null}
          {addon ? (
            <Stack gap={4}>
              <Text fw={600} size="sm">Recent deliveries</Text>
              {deliveries.data?.integrationEvents.length ? (
                <Table aria-label="Recent deliveries">
                  <Table.Tbody>
                    {deliveries.data.integrationEvents.slice(0, 10).map((delivery) => (
                      <Table.Tr key={delivery.id}>
                        <Table.Td miw={96}><Badge variant="light" miw={80} color={delivery.state === 'success' ? 'green' : 'red'}>{delivery.state}</Badge></Table.Td>
                        <Table.Td><Code>{delivery.event.type ?? ''}</Code></Table.Td>
                        <Table.Td><Text size="xs">{delivery.stateDetails}</Text></Table.Td>
                        <Table.Td><Text size="xs">{new Date(delivery.createdAt).toLocaleString()}</Text></Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              ) : <Text size="sm" c="dimmed">None yet.</Text>}
            </Stack>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{addon ? 'Done' : 'Cancel'}</Button>
            <Button type="submit" loading={save.isPending} disabled={!url.trim() || events.length === 0}>Save webhook</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Webhooks (Unleash's webhook addons): which events go where, and how the last deliveries went. */
export default function WebhooksPage() {
  const queryClient = useQueryClient();
  const can = usePermission();
  const create = can('CREATE_ADDON');
  const addons = useQuery({ queryKey: adminKeys.addons, queryFn: ({ signal }) => get<{ addons: Addon[] }>('/api/admin/addons', signal) });
  const [editing, setEditing] = useState<Addon | null | undefined>(undefined);
  const toggle = useMutation({
    mutationFn: (addon: Addon) => put(`/api/admin/addons/${addon.id}`, { ...addon, enabled: !addon.enabled }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: adminKeys.addons }),
    onError: (error) => notifyFailed(error),
  });
  const deleteAddon = useRemoval((id: number) => `/api/admin/addons/${id}`, { refresh: [adminKeys.addons], done: 'Webhook removed', failed: 'Not removed' });
  const webhooks = addons.data?.addons.filter((addon) => addon.provider === 'webhook') ?? [];
  return (
    <Stack>
      <Group justify="flex-end">
        <Guarded reason={create.reason}><Button onClick={() => setEditing(null)} disabled={!create.allowed}>New webhook</Button></Guarded>
      </Group>
      {addons.isPending ? <Loading label="Loading webhooks" /> : addons.isError ? <Failed error={addons.error} /> : webhooks.length === 0 ? <Empty title="No webhooks yet" /> : (
        <Table aria-label="Webhooks">
          <Table.Thead><Table.Tr><Table.Th>URL</Table.Th><Table.Th>Events</Table.Th><Table.Th>Enabled</Table.Th><Table.Th /></Table.Tr></Table.Thead>
          <Table.Tbody>
            {webhooks.map((addon) => {
              const url = String((addon.parameters as Record<string, unknown>).url ?? '');
              return (
                <Table.Tr key={addon.id}>
                  <Table.Td><Button variant="subtle" size="compact-sm" onClick={() => setEditing(addon)}>{url}</Button></Table.Td>
                  <Table.Td><Text size="sm" lineClamp={2}>{addon.events.join(', ')}</Text></Table.Td>
                  <Table.Td><Switch aria-label={`Webhook to ${url} enabled`} checked={addon.enabled} disabled={!can('UPDATE_ADDON').allowed} onChange={() => toggle.mutate(addon)} /></Table.Td>
                  <Table.Td>
                    <ConfirmButton size="compact-sm" variant="subtle" color="red" aria-label={`Remove the webhook to ${url}`} disabled={!can('DELETE_ADDON').allowed}
                      title="Remove this webhook?" message={`Nothing more is sent to ${url}.`} confirmLabel="Remove" onConfirm={() => deleteAddon.mutate(addon.id)}>Remove</ConfirmButton>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {editing !== undefined ? <WebhookModal addon={editing} onClose={() => setEditing(undefined)} /> : null}
    </Stack>
  );
}
