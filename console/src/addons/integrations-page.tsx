import {
  Badge,
  Button,
  Code,
  MultiSelect,
  NativeSelect,
  PasswordInput,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useState } from 'react';
import { fieldError } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { useEnvironments } from '../environments/environment-queries.ts';
import { useProjects } from '../projects/project-queries.ts';
import { DeleteButton } from '../ui/delete-button.tsx';
import { CreateButton } from '../ui/create-button.tsx';
import { FormModal } from '../ui/form-modal.tsx';
import { ListTable } from '../ui/list-table.tsx';
import {
  useAddonDeliveries,
  useAddons,
  useRemoveAddon,
  useSaveAddon,
  useSwitchAddon,
  type AddonProvider,
  type AddonView,
} from './addon-queries.ts';
import { addonTarget, parametersToSend } from './integration-form.ts';
import { AuditDelivery, AuditHealth } from './audit-status.tsx';

function Deliveries({ id }: { id: number }) {
  const deliveries = useAddonDeliveries(id);
  return (
    <Stack gap={4}>
      <Text fw={600} size="sm">
        Recent deliveries
      </Text>
      {deliveries.data?.integrationEvents.length ? (
        <Table aria-label="Recent deliveries">
          <Table.Tbody>
            {deliveries.data.integrationEvents.slice(0, 10).map((delivery) => (
              <Table.Tr key={delivery.id}>
                <Table.Td miw={96}>
                  <Badge
                    variant="light"
                    miw={80}
                    color={
                      delivery.state === 'success' ? 'green' : delivery.state === 'successWithErrors' ? 'orange' : 'red'
                    }
                  >
                    {delivery.state}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Code>{String(delivery.event.type ?? '')}</Code>
                </Table.Td>
                <Table.Td>
                  <Text size="xs" style={{ whiteSpace: 'pre-line' }}>
                    {delivery.stateDetails}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="xs">{new Date(delivery.createdAt).toLocaleString()}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="sm" c="dimmed">
          None yet.
        </Text>
      )}
    </Stack>
  );
}

/** One integration's settings: the fields its provider asks for, the events it sends and where from. */
function IntegrationModal({
  addon,
  providers,
  onClose,
}: {
  addon: AddonView | null;
  providers: readonly AddonProvider[];
  onClose: () => void;
}) {
  const projects = useProjects();
  const environments = useEnvironments();
  const [providerName, setProviderName] = useState(addon?.provider ?? 'webhook');
  const provider = providers.find((one) => one.name === providerName) ?? providers[0]!;
  const audit = provider.audit === true;
  const [values, setValues] = useState<Record<string, string>>(
    Object.fromEntries(Object.entries(addon?.parameters ?? {}).map(([name, value]) => [name, String(value ?? '')])),
  );
  // Null until chosen: a chat integration starts with two events, an audit destination with none (every one).
  const [chosen, setEvents] = useState<string[] | null>(addon?.events ?? null);
  const [projectFilter, setProjectFilter] = useState<string[]>(addon?.projects ?? []);
  const [environmentFilter, setEnvironmentFilter] = useState<string[]>(addon?.environments ?? []);
  const save = useSaveAddon(addon?.id);
  const events = chosen ?? (audit ? [] : ['feature-environment-enabled', 'feature-environment-disabled']);
  const offered = events.filter((type) => (provider.events as readonly string[]).includes(type));
  const missing = provider.parameters.filter(
    (parameter) => parameter.required && !(values[parameter.name] ?? '').trim(),
  );
  const submit = () =>
    save.mutate(
      {
        provider: provider.name,
        enabled: addon?.enabled ?? true,
        description: addon?.description ?? null,
        events: provider.events.filter((type) => offered.includes(type)),
        projects: projectFilter,
        environments: environmentFilter,
        // A masked secret sent back unchanged keeps the stored one.
        parameters: parametersToSend(provider, values),
      },
      { onSuccess: onClose },
    );
  const title = addon
    ? provider.displayName
    : `New ${provider.displayName === 'Webhook' ? 'webhook' : `${provider.displayName} integration`}`;
  return (
    <FormModal
      title={title}
      size="lg"
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Save integration"
      closeLabel={addon ? 'Done' : 'Cancel'}
      pending={save.isPending}
      disabled={missing.length > 0 || (!audit && offered.length === 0)}
      error={save.error}
      fields={['events', ...provider.parameters.map((parameter) => `parameters.${parameter.name}`)]}
    >
      {addon ? null : (
        <NativeSelect
          label="Service"
          value={provider.name}
          onChange={(event) => setProviderName(event.currentTarget.value)}
          data={providers.map((one) => ({ value: one.name, label: one.displayName }))}
          description={provider.description}
        />
      )}
      {provider.howTo ? (
        <Text size="sm" c="dimmed">
          {provider.howTo}
        </Text>
      ) : null}
      {provider.parameters.map((parameter, index) => {
        // React wants the key as its own attribute, never spread in with the props.
        const key = `${provider.name}-${parameter.name}`;
        const common = {
          label: parameter.displayName,
          required: parameter.required,
          placeholder: parameter.placeholder,
          description: parameter.description,
          value: values[parameter.name] ?? '',
          error: fieldError(save.error, `parameters.${parameter.name}`),
          onChange: (event: { currentTarget: { value: string } }) =>
            setValues({ ...values, [parameter.name]: event.currentTarget.value }),
          ...(index === 0 ? { 'data-autofocus': true } : {}),
        };
        if (parameter.type === 'textfield') return <Textarea key={key} {...common} autosize minRows={2} />;
        return parameter.sensitive && parameter.type !== 'url' ? (
          <PasswordInput key={key} {...common} />
        ) : (
          <TextInput key={key} {...common} />
        );
      })}
      <MultiSelect
        label="Events"
        searchable
        required={!audit}
        description={audit ? 'None chosen: every event, the whole audit log' : undefined}
        data={provider.events}
        value={offered}
        onChange={setEvents}
        error={fieldError(save.error, 'events')}
      />
      <MultiSelect
        label="Only these projects"
        description="None chosen: every project"
        data={(projects.data?.projects ?? []).map((item) => ({ value: item.id, label: item.name }))}
        value={projectFilter}
        onChange={setProjectFilter}
      />
      <MultiSelect
        label="Only these environments"
        description="None chosen: every environment"
        data={(environments.data ?? []).map((item) => item.name)}
        value={environmentFilter}
        onChange={setEnvironmentFilter}
      />
      {addon ? audit ? <AuditDelivery id={addon.id} /> : <Deliveries id={addon.id} /> : null}
    </FormModal>
  );
}

/** Integrations (Unleash's addons): webhooks, Slack, Teams, Datadog, New Relic; which events go where, how the last went. */
export default function IntegrationsPage() {
  const can = usePermission();
  const addons = useAddons();
  const [editing, setEditing] = useState<AddonView | null | undefined>(undefined);
  const toggle = useSwitchAddon();
  const remove = useRemoveAddon();
  const providers = addons.data?.providers ?? [];
  const displayName = (name: string) => providers.find((provider) => provider.name === name)?.displayName ?? name;
  const isAudit = (name: string) => providers.find((provider) => provider.name === name)?.audit === true;
  return (
    <Stack>
      <CreateButton permission={can('CREATE_ADDON')} onClick={() => setEditing(null)}>
        New integration
      </CreateButton>
      <ListTable
        query={addons}
        label="Integrations"
        empty="No integrations yet"
        columns={['Sends to', 'Service', 'Events', 'Enabled', '']}
        rowsOf={(data) => data.addons}
        rowKey={(addon) => addon.id}
        cells={(addon) => {
          const target = addonTarget(addon);
          return (
            <>
              <Table.Td>
                <Button variant="subtle" size="compact-sm" onClick={() => setEditing(addon)}>
                  {target}
                </Button>
              </Table.Td>
              <Table.Td>
                <Stack gap={4} align="flex-start">
                  <Badge variant="light">{displayName(addon.provider)}</Badge>
                  {isAudit(addon.provider) && addon.enabled ? <AuditHealth id={addon.id} /> : null}
                </Stack>
              </Table.Td>
              <Table.Td>
                <Text size="sm" lineClamp={2}>
                  {addon.events.length === 0 && isAudit(addon.provider) ? 'All events' : addon.events.join(', ')}
                </Text>
              </Table.Td>
              <Table.Td>
                <Switch
                  aria-label={`Integration to ${target} enabled`}
                  checked={addon.enabled}
                  disabled={!can('UPDATE_ADDON').allowed}
                  onChange={() => toggle.mutate(addon)}
                />
              </Table.Td>
              <Table.Td>
                <DeleteButton
                  verb="Remove"
                  what={`the integration to ${target}`}
                  disabled={!can('DELETE_ADDON').allowed}
                  title="Remove this integration?"
                  message={`Nothing more is sent to ${target}.`}
                  onConfirm={() => remove.mutate(addon.id)}
                />
              </Table.Td>
            </>
          );
        }}
      />
      {editing !== undefined && providers.length > 0 ? (
        <IntegrationModal addon={editing} providers={providers} onClose={() => setEditing(undefined)} />
      ) : null}
    </Stack>
  );
}
