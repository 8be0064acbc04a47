import { ActionIcon, Alert, Anchor, Badge, Button, Code, Group, Modal, NativeSelect, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { ACTION_TYPES, SINGLE_VALUE_OPERATORS, type CreateActionSet, type PayloadFilter, type SignalEndpoint } from '@bunting/contracts';
import { adminKeys } from '../api/admin-keys.ts';
import { get, messageOf, post, segment } from '../api/http.ts';
import { useEnvironments } from '../api/reference.ts';
import { usePermission } from '../api/session.ts';
import { OPERATORS, OPERATOR_LABELS, parseValues, type Operator } from '../constraints/constraint-values.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { Guarded } from '../ui/guarded.tsx';
import { notifyFailed, notifySaved } from '../ui/notify.ts';
import { useRemoval } from '../ui/use-removal.ts';
import { Empty, Failed, Loading } from '../ui/states.tsx';

type ActionSet = CreateActionSet & { id: number; project: string; createdAt: string };
type Run = { id: number; signalId: number; state: string; actions: { action?: string; state?: string; details?: string }[]; createdAt: string };
type ServiceAccount = { id: number; name: string | null; username: string | null };

type FilterDraft = { path: string; operator: Operator; values: string };
type ActionDraft = { action: (typeof ACTION_TYPES)[number]; environment: string; featureName: string };

const keys = {
  sets: (project: string) => ['actions', project] as const,
  runs: (project: string, id: number) => ['actions', project, id, 'runs'] as const,
};

const single = (operator: string) => SINGLE_VALUE_OPERATORS.has(operator);

/** The payload filters as the API takes them: a path into the signal's JSON and a constraint on its value. */
function toPayload(filters: FilterDraft[]): Record<string, PayloadFilter> {
  return Object.fromEntries(filters.filter((filter) => filter.path.trim()).map((filter) => [filter.path.trim(),
    single(filter.operator) ? { operator: filter.operator, value: filter.values.trim() } : { operator: filter.operator, values: parseValues(filter.values) }]));
}

function NewActionSetModal({ project, onClose }: { project: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const environments = useEnvironments();
  const endpoints = useQuery({ queryKey: adminKeys.signalEndpoints, queryFn: ({ signal }) => get<{ signalEndpoints: SignalEndpoint[] }>('/api/admin/signal-endpoints', signal) });
  const accounts = useQuery({ queryKey: adminKeys.serviceAccounts, queryFn: ({ signal }) => get<{ serviceAccounts: ServiceAccount[] }>('/api/admin/service-account', signal) });
  const [name, setName] = useState('');
  const [endpointId, setEndpointId] = useState('');
  const [actorId, setActorId] = useState('');
  const [filters, setFilters] = useState<FilterDraft[]>([]);
  const [actions, setActions] = useState<ActionDraft[]>([{ action: 'ENABLE_FEATURE', environment: '', featureName: '' }]);
  const save = useMutation({
    mutationFn: () => post(`/api/admin/projects/${segment(project)}/actions`, {
      name: name.trim(),
      actorId: Number(actorId),
      match: { source: 'signal-endpoint', sourceId: Number(endpointId), payload: toPayload(filters) },
      actions: actions.map((action) => ({ action: action.action, executionParams: { project, environment: action.environment, featureName: action.featureName.trim() } })),
    }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keys.sets(project) });
      notifySaved('Action set created');
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const updateFilter = (index: number, change: Partial<FilterDraft>) => setFilters((list) => list.map((filter, at) => (at === index ? { ...filter, ...change } : filter)));
  const updateAction = (index: number, change: Partial<ActionDraft>) => setActions((list) => list.map((action, at) => (at === index ? { ...action, ...change } : action)));
  const environmentNames = (environments.data ?? []).map((environment) => environment.name);
  const ready = name.trim() && endpointId && actorId && actions.every((action) => action.environment && action.featureName.trim());
  return (
    <Modal opened onClose={onClose} title="New action set" size="xl">
      <form onSubmit={submit}>
        <Stack>
          <TextInput label="Name" required value={name} onChange={(event) => setName(event.currentTarget.value)} data-autofocus />
          <Group grow>
            <NativeSelect label="When a signal arrives at" required value={endpointId} onChange={(event) => setEndpointId(event.currentTarget.value)}
              data={[{ value: '', label: 'Choose a signal endpoint' }, ...(endpoints.data?.signalEndpoints ?? []).map((endpoint) => ({ value: String(endpoint.id), label: endpoint.name }))]} />
            <NativeSelect label="Act as" description="A service account; the changes are recorded as its own" required value={actorId} onChange={(event) => setActorId(event.currentTarget.value)}
              data={[{ value: '', label: 'Choose a service account' }, ...(accounts.data?.serviceAccounts ?? []).map((account) => ({ value: String(account.id), label: account.name ?? account.username ?? String(account.id) }))]} />
          </Group>
          <Stack gap="xs">
            <Text fw={600} size="sm">Only if the payload matches</Text>
            {filters.length === 0 ? <Text size="sm" c="dimmed">No filters: every signal to the endpoint runs the actions.</Text> : null}
            {filters.map((filter, index) => (
              <Group key={index} align="flex-end" role="group" aria-label={`Filter ${index + 1}`}>
                <TextInput label="Path" description="e.g. data.severity" value={filter.path} onChange={(event) => updateFilter(index, { path: event.currentTarget.value })} />
                <NativeSelect label="Operator" value={filter.operator} onChange={(event) => updateFilter(index, { operator: event.currentTarget.value as Operator })}
                  data={OPERATORS.map((operator) => ({ value: operator, label: OPERATOR_LABELS[operator] }))} />
                <TextInput label={single(filter.operator) ? 'Value' : 'Values'} description={single(filter.operator) ? undefined : 'Comma-separated'} value={filter.values}
                  onChange={(event) => updateFilter(index, { values: event.currentTarget.value })} style={{ flex: 1 }} />
                <ActionIcon variant="subtle" color="red" aria-label={`Remove filter ${index + 1}`} onClick={() => setFilters((list) => list.filter((_, at) => at !== index))}>×</ActionIcon>
              </Group>
            ))}
            <Group><Button variant="light" size="compact-sm" onClick={() => setFilters((list) => [...list, { path: '', operator: 'IN', values: '' }])}>Add filter</Button></Group>
          </Stack>
          <Stack gap="xs">
            <Text fw={600} size="sm">Then</Text>
            {actions.map((action, index) => (
              <Group key={index} align="flex-end" role="group" aria-label={`Action ${index + 1}`}>
                <NativeSelect label="Do" value={action.action} onChange={(event) => updateAction(index, { action: event.currentTarget.value as ActionDraft['action'] })}
                  data={[{ value: 'ENABLE_FEATURE', label: 'Switch on' }, { value: 'DISABLE_FEATURE', label: 'Switch off' }]} />
                <TextInput label="Flag" value={action.featureName} onChange={(event) => updateAction(index, { featureName: event.currentTarget.value })} />
                <NativeSelect label="In" value={action.environment} onChange={(event) => updateAction(index, { environment: event.currentTarget.value })}
                  data={[{ value: '', label: 'Choose an environment' }, ...environmentNames]} />
                {actions.length > 1 ? <ActionIcon variant="subtle" color="red" aria-label={`Remove action ${index + 1}`} onClick={() => setActions((list) => list.filter((_, at) => at !== index))}>×</ActionIcon> : null}
              </Group>
            ))}
            <Group><Button variant="light" size="compact-sm" onClick={() => setActions((list) => [...list, { action: 'ENABLE_FEATURE', environment: '', featureName: '' }])}>Add action</Button></Group>
          </Stack>
          {save.error ? <Alert color="red" role="alert">{messageOf(save.error)}</Alert> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={save.isPending} disabled={!ready}>Save action set</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RunsModal({ project, set, onClose }: { project: string; set: ActionSet; onClose: () => void }) {
  const runs = useQuery({
    queryKey: keys.runs(project, set.id),
    queryFn: ({ signal }) => get<{ actionSetEvents: Run[] }>(`/api/admin/projects/${segment(project)}/actions/${set.id}/events?limit=20`, signal),
    refetchInterval: 2000,
  });
  return (
    <Modal opened onClose={onClose} title={`Runs of ${set.name}`} size="lg">
      <Stack>
        {runs.isPending ? <Loading label="Loading runs" /> : runs.isError ? <Failed error={runs.error} /> : runs.data.actionSetEvents.length === 0 ? <Text size="sm" c="dimmed">No matching signal yet.</Text> : (
          <Table aria-label="Runs">
            <Table.Thead><Table.Tr><Table.Th>When</Table.Th><Table.Th>Outcome</Table.Th><Table.Th>Actions</Table.Th></Table.Tr></Table.Thead>
            <Table.Tbody>
              {runs.data.actionSetEvents.map((run) => (
                <Table.Tr key={run.id}>
                  <Table.Td><Text size="xs">{new Date(run.createdAt).toLocaleString()}</Text></Table.Td>
                  <Table.Td><Badge variant="light" color={run.state === 'success' ? 'green' : run.state === 'failed' ? 'red' : 'gray'}>{run.state}</Badge></Table.Td>
                  <Table.Td><Text size="sm">{run.actions.map((action) => `${action.action ?? ''}: ${action.state ?? ''}${action.details ? ` (${action.details})` : ''}`).join('; ')}</Text></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Group justify="flex-end"><Button variant="default" onClick={onClose}>Done</Button></Group>
      </Stack>
    </Modal>
  );
}

/** A project's action sets (Unleash's actions): what a signal from outside switches, as whom, and how each run went. */
export default function ActionSetsPage() {
  const project = useParams().projectId ?? '';
  const queryClient = useQueryClient();
  const admin = usePermission()('ADMIN');
  const sets = useQuery({ queryKey: keys.sets(project), queryFn: ({ signal }) => get<{ actions: ActionSet[] }>(`/api/admin/projects/${segment(project)}/actions`, signal), enabled: admin.allowed });
  const endpoints = useQuery({ queryKey: adminKeys.signalEndpoints, queryFn: ({ signal }) => get<{ signalEndpoints: SignalEndpoint[] }>('/api/admin/signal-endpoints', signal), enabled: admin.allowed });
  const [creating, setCreating] = useState(false);
  const [runsOf, setRunsOf] = useState<ActionSet | null>(null);
  const toggle = useMutation({
    mutationFn: (set: ActionSet) => post(`/api/admin/projects/${segment(project)}/actions/${set.id}/${set.enabled === false ? 'on' : 'off'}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.sets(project) }),
    onError: (error) => notifyFailed(error),
  });
  const deleteSet = useRemoval((id: number) => `/api/admin/projects/${segment(project)}/actions/${id}`, { refresh: [keys.sets(project)], done: 'Action set deleted' });
  const endpointName = (id: number) => endpoints.data?.signalEndpoints.find((endpoint) => endpoint.id === id)?.name ?? `#${id}`;
  return (
    <Stack>
      <Text size="sm" c="dimmed"><Anchor component={Link} to="/projects">Projects</Anchor> / <Anchor component={Link} to={`/projects/${segment(project)}`}>{project}</Anchor></Text>
      <Group justify="space-between">
        <Title order={1}>Actions</Title>
        <Guarded reason={admin.reason}><Button onClick={() => setCreating(true)} disabled={!admin.allowed}>New action set</Button></Guarded>
      </Group>
      {!admin.allowed ? <Text>{admin.reason}</Text> : sets.isPending ? <Loading label="Loading action sets" /> : sets.isError ? <Failed error={sets.error} /> : sets.data.actions.length === 0 ? (
        <Empty title="No action sets yet">A signal endpoint's signals can switch this project's flags: make an action set to say which.</Empty>
      ) : (
        <Table aria-label="Action sets">
          <Table.Thead><Table.Tr><Table.Th>Name</Table.Th><Table.Th>Signal endpoint</Table.Th><Table.Th>Filters</Table.Th><Table.Th>Actions</Table.Th><Table.Th>Enabled</Table.Th><Table.Th /></Table.Tr></Table.Thead>
          <Table.Tbody>
            {sets.data.actions.map((set) => (
              <Table.Tr key={set.id}>
                <Table.Td><Button variant="subtle" size="compact-sm" onClick={() => setRunsOf(set)} aria-label={`Runs of ${set.name}`}>{set.name}</Button></Table.Td>
                <Table.Td>{endpointName(set.match.sourceId)}</Table.Td>
                <Table.Td>{Object.entries(set.match.payload ?? {}).map(([path, filter]) => (
                  <Code key={path} mr={4}>{`${path} ${OPERATOR_LABELS[filter.operator as Operator] ?? filter.operator} ${filter.value ?? (filter.values ?? []).join(', ')}`}</Code>
                ))}</Table.Td>
                <Table.Td><Text size="sm">{set.actions.map((action) => `${action.action === 'ENABLE_FEATURE' ? 'on' : 'off'}: ${action.executionParams.featureName} in ${action.executionParams.environment}`).join('; ')}</Text></Table.Td>
                <Table.Td><Switch aria-label={`Action set ${set.name} enabled`} checked={set.enabled !== false} onChange={() => toggle.mutate(set)} /></Table.Td>
                <Table.Td>
                  <ConfirmButton size="compact-sm" variant="subtle" color="red" aria-label={`Delete the action set ${set.name}`}
                    title="Delete this action set?" message="Signals no longer run its actions." confirmLabel="Delete" onConfirm={() => deleteSet.mutate(set.id)}>Delete</ConfirmButton>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {creating ? <NewActionSetModal project={project} onClose={() => setCreating(false)} /> : null}
      {runsOf ? <RunsModal project={project} set={runsOf} onClose={() => setRunsOf(null)} /> : null}
    </Stack>
  );
}
