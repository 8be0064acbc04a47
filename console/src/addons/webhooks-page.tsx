import { Badge, Button, Code, MultiSelect, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { EVENT_TYPES } from '@bunting/contracts';
import { fieldError } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { useEnvironments } from '../environments/environment-queries.ts';
import { useProjects } from '../projects/project-queries.ts';
import { DeleteButton } from '../ui/delete-button.tsx';
import { CreateButton } from '../ui/create-button.tsx';
import { FormModal } from '../ui/form-modal.tsx';
import { ListTable } from '../ui/list-table.tsx';
import { useAddonDeliveries, useAddons, useRemoveAddon, useSaveAddon, useSwitchAddon, type AddonView } from './addon-queries.ts';

function WebhookModal({ addon, onClose }: { addon: AddonView | null; onClose: () => void }) {
  const projects = useProjects();
  const environments = useEnvironments();
  const parameters = (addon?.parameters ?? {}) as Record<string, string>;
  const [url, setUrl] = useState(parameters.url ?? '');
  const [authorization, setAuthorization] = useState(parameters.authorization ?? '');
  const [events, setEvents] = useState<string[]>(addon?.events ?? ['feature-environment-enabled', 'feature-environment-disabled']);
  const [projectFilter, setProjectFilter] = useState<string[]>(addon?.projects ?? []);
  const [environmentFilter, setEnvironmentFilter] = useState<string[]>(addon?.environments ?? []);
  const deliveries = useAddonDeliveries(addon?.id);
  const save = useSaveAddon(addon?.id);
  const submit = () => save.mutate({
    provider: 'webhook', enabled: addon?.enabled ?? true, description: addon?.description ?? null, events: EVENT_TYPES.filter((type) => events.includes(type)), projects: projectFilter, environments: environmentFilter,
    // A masked secret sent back unchanged keeps the stored one.
    parameters: { url, ...(authorization ? { authorization } : {}) },
  }, { onSuccess: onClose });
  return (
    <FormModal title={addon ? 'Webhook' : 'New webhook'} size="lg" onClose={onClose} onSubmit={submit} submitLabel="Save webhook" closeLabel={addon ? 'Done' : 'Cancel'} pending={save.isPending}
      disabled={!url.trim() || events.length === 0} error={save.error} fields={['parameters.url', 'events']}>
          <TextInput label="URL" required placeholder="https://hooks.example.com/bunting" value={url} onChange={(event) => setUrl(event.currentTarget.value)} error={fieldError(save.error, 'parameters.url')} data-autofocus />
          <TextInput label="Authorization header" description="Sent with each delivery; shown masked once saved" value={authorization} onChange={(event) => setAuthorization(event.currentTarget.value)} />
          <MultiSelect label="Events" searchable required data={[...EVENT_TYPES]} value={events} onChange={setEvents} error={fieldError(save.error, 'events')} />
          <MultiSelect label="Only these projects" description="None chosen: every project" data={(projects.data?.projects ?? []).map((item) => ({ value: item.id, label: item.name }))} value={projectFilter} onChange={setProjectFilter} />
          <MultiSelect label="Only these environments" description="None chosen: every environment" data={(environments.data ?? []).map((item) => item.name)} value={environmentFilter} onChange={setEnvironmentFilter} />
          {addon ? (
            <Stack gap={4}>
              <Text fw={600} size="sm">Recent deliveries</Text>
              {deliveries.data?.integrationEvents.length ? (
                <Table aria-label="Recent deliveries">
                  <Table.Tbody>
                    {deliveries.data.integrationEvents.slice(0, 10).map((delivery) => (
                      <Table.Tr key={delivery.id}>
                        <Table.Td miw={96}><Badge variant="light" miw={80} color={delivery.state === 'success' ? 'green' : 'red'}>{delivery.state}</Badge></Table.Td>
                        <Table.Td><Code>{String(delivery.event.type ?? '')}</Code></Table.Td>
                        <Table.Td><Text size="xs">{delivery.stateDetails}</Text></Table.Td>
                        <Table.Td><Text size="xs">{new Date(delivery.createdAt).toLocaleString()}</Text></Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              ) : <Text size="sm" c="dimmed">None yet.</Text>}
            </Stack>
          ) : null}
    </FormModal>
  );
}

/** Webhooks (Unleash's webhook addons): which events go where, and how the last deliveries went. */
export default function WebhooksPage() {
  const can = usePermission();
  const addons = useAddons();
  const [editing, setEditing] = useState<AddonView | null | undefined>(undefined);
  const toggle = useSwitchAddon();
  const remove = useRemoveAddon();
  return (
    <Stack>
      <CreateButton permission={can('CREATE_ADDON')} onClick={() => setEditing(null)}>New webhook</CreateButton>
      <ListTable query={addons} label="Webhooks" empty="No webhooks yet" columns={['URL', 'Events', 'Enabled', '']}
        rowsOf={(data) => data.addons.filter((addon) => addon.provider === 'webhook')} rowKey={(addon) => addon.id}
        cells={(addon) => {
          const url = String(addon.parameters.url ?? '');
          return (
            <>
              <Table.Td><Button variant="subtle" size="compact-sm" onClick={() => setEditing(addon)}>{url}</Button></Table.Td>
              <Table.Td><Text size="sm" lineClamp={2}>{addon.events.join(', ')}</Text></Table.Td>
              <Table.Td><Switch aria-label={`Webhook to ${url} enabled`} checked={addon.enabled} disabled={!can('UPDATE_ADDON').allowed} onChange={() => toggle.mutate(addon)} /></Table.Td>
              <Table.Td>
                <DeleteButton verb="Remove" what={`the webhook to ${url}`} disabled={!can('DELETE_ADDON').allowed} title="Remove this webhook?"
                  message={`Nothing more is sent to ${url}.`} onConfirm={() => remove.mutate(addon.id)} />
              </Table.Td>
            </>
          );
        }} />
      {editing !== undefined ? <WebhookModal addon={editing} onClose={() => setEditing(undefined)} /> : null}
    </Stack>
  );
}
