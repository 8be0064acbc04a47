import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Modal,
  NativeSelect,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ACTION_TYPES, SINGLE_VALUE_OPERATORS, type PayloadFilter } from '@bunting/contracts';
import { usePermission } from '../api/session.ts';
import { OPERATORS, OPERATOR_LABELS, parseValues, type Operator } from '../constraints/constraint-values.ts';
import { useEnvironments } from '../environments/environment-queries.ts';
import { useServiceAccounts } from '../personal-access-tokens/pat-queries.ts';
import { projectPage } from '../ui/addresses.ts';
import { DeleteButton } from '../ui/delete-button.tsx';
import { CreateButton } from '../ui/create-button.tsx';
import { FormModal } from '../ui/form-modal.tsx';
import { ListTable } from '../ui/list-table.tsx';
import {
  useActionSetRuns,
  useActionSets,
  useCreateActionSet,
  useDeleteActionSet,
  useSignalEndpoints,
  useSwitchActionSet,
  type ActionSetView,
} from './signal-queries.ts';

type ActionSet = ActionSetView;
/** What one action of a run did, as the run records it. */
type ActionOutcome = { action?: string; state?: string; details?: string };

type FilterDraft = { path: string; operator: Operator; values: string };
type ActionDraft = { action: (typeof ACTION_TYPES)[number]; environment: string; featureName: string };

const single = (operator: string) => SINGLE_VALUE_OPERATORS.has(operator);

/** The payload filters as the API takes them: a path into the signal's JSON and a constraint on its value. */
function toPayload(filters: FilterDraft[]): Record<string, PayloadFilter> {
  return Object.fromEntries(
    filters
      .filter((filter) => filter.path.trim())
      .map((filter) => [
        filter.path.trim(),
        single(filter.operator)
          ? { operator: filter.operator, value: filter.values.trim() }
          : { operator: filter.operator, values: parseValues(filter.values) },
      ]),
  );
}

function NewActionSetModal({ project, onClose }: { project: string; onClose: () => void }) {
  const environments = useEnvironments();
  const endpoints = useSignalEndpoints();
  const accounts = useServiceAccounts(true);
  const [name, setName] = useState('');
  const [endpointId, setEndpointId] = useState('');
  const [actorId, setActorId] = useState('');
  const [filters, setFilters] = useState<FilterDraft[]>([]);
  const [actions, setActions] = useState<ActionDraft[]>([
    { action: 'ENABLE_FEATURE', environment: '', featureName: '' },
  ]);
  const save = useCreateActionSet(project);
  const submit = () =>
    save.mutate(
      {
        name: name.trim(),
        actorId: Number(actorId),
        match: { source: 'signal-endpoint', sourceId: Number(endpointId), payload: toPayload(filters) },
        actions: actions.map((action) => ({
          action: action.action,
          executionParams: { project, environment: action.environment, featureName: action.featureName.trim() },
        })),
      },
      { onSuccess: onClose },
    );
  const updateFilter = (index: number, change: Partial<FilterDraft>) =>
    setFilters((list) => list.map((filter, at) => (at === index ? { ...filter, ...change } : filter)));
  const updateAction = (index: number, change: Partial<ActionDraft>) =>
    setActions((list) => list.map((action, at) => (at === index ? { ...action, ...change } : action)));
  const environmentNames = (environments.data ?? []).map((environment) => environment.name);
  const ready =
    name.trim() && endpointId && actorId && actions.every((action) => action.environment && action.featureName.trim());
  return (
    <FormModal
      title="New action set"
      size="xl"
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Save action set"
      pending={save.isPending}
      disabled={!ready}
      error={save.error}
    >
      <TextInput
        label="Name"
        required
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        data-autofocus
      />
      <Group grow>
        <NativeSelect
          label="When a signal arrives at"
          required
          value={endpointId}
          onChange={(event) => setEndpointId(event.currentTarget.value)}
          data={[
            { value: '', label: 'Choose a signal endpoint' },
            ...(endpoints.data?.signalEndpoints ?? []).map((endpoint) => ({
              value: String(endpoint.id),
              label: endpoint.name,
            })),
          ]}
        />
        <NativeSelect
          label="Act as"
          description="A service account; the changes are recorded as its own"
          required
          value={actorId}
          onChange={(event) => setActorId(event.currentTarget.value)}
          data={[
            { value: '', label: 'Choose a service account' },
            ...(accounts.data?.serviceAccounts ?? []).map((account) => ({
              value: String(account.id),
              label: account.name ?? account.username ?? String(account.id),
            })),
          ]}
        />
      </Group>
      <Stack gap="xs">
        <Text fw={600} size="sm">
          Only if the payload matches
        </Text>
        {filters.length === 0 ? (
          <Text size="sm" c="dimmed">
            No filters: every signal to the endpoint runs the actions.
          </Text>
        ) : null}
        {filters.map((filter, index) => (
          <Group key={index} align="flex-end" role="group" aria-label={`Filter ${index + 1}`}>
            <TextInput
              label="Path"
              description="e.g. data.severity"
              value={filter.path}
              onChange={(event) => updateFilter(index, { path: event.currentTarget.value })}
            />
            <NativeSelect
              label="Operator"
              value={filter.operator}
              onChange={(event) => updateFilter(index, { operator: event.currentTarget.value as Operator })}
              data={OPERATORS.map((operator) => ({ value: operator, label: OPERATOR_LABELS[operator] }))}
            />
            <TextInput
              label={single(filter.operator) ? 'Value' : 'Values'}
              description={single(filter.operator) ? undefined : 'Comma-separated'}
              value={filter.values}
              onChange={(event) => updateFilter(index, { values: event.currentTarget.value })}
              style={{ flex: 1 }}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Remove filter ${index + 1}`}
              onClick={() => setFilters((list) => list.filter((_, at) => at !== index))}
            >
              ×
            </ActionIcon>
          </Group>
        ))}
        <Group>
          <Button
            variant="light"
            size="compact-sm"
            onClick={() => setFilters((list) => [...list, { path: '', operator: 'IN', values: '' }])}
          >
            Add filter
          </Button>
        </Group>
      </Stack>
      <Stack gap="xs">
        <Text fw={600} size="sm">
          Then
        </Text>
        {actions.map((action, index) => (
          <Group key={index} align="flex-end" role="group" aria-label={`Action ${index + 1}`}>
            <NativeSelect
              label="Do"
              value={action.action}
              onChange={(event) => updateAction(index, { action: event.currentTarget.value as ActionDraft['action'] })}
              data={[
                { value: 'ENABLE_FEATURE', label: 'Switch on' },
                { value: 'DISABLE_FEATURE', label: 'Switch off' },
              ]}
            />
            <TextInput
              label="Flag"
              value={action.featureName}
              onChange={(event) => updateAction(index, { featureName: event.currentTarget.value })}
            />
            <NativeSelect
              label="In"
              value={action.environment}
              onChange={(event) => updateAction(index, { environment: event.currentTarget.value })}
              data={[{ value: '', label: 'Choose an environment' }, ...environmentNames]}
            />
            {actions.length > 1 ? (
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Remove action ${index + 1}`}
                onClick={() => setActions((list) => list.filter((_, at) => at !== index))}
              >
                ×
              </ActionIcon>
            ) : null}
          </Group>
        ))}
        <Group>
          <Button
            variant="light"
            size="compact-sm"
            onClick={() =>
              setActions((list) => [...list, { action: 'ENABLE_FEATURE', environment: '', featureName: '' }])
            }
          >
            Add action
          </Button>
        </Group>
      </Stack>
    </FormModal>
  );
}

function RunsModal({ project, set, onClose }: { project: string; set: ActionSet; onClose: () => void }) {
  const runs = useActionSetRuns(project, set.id);
  return (
    <Modal opened onClose={onClose} title={`Runs of ${set.name}`} size="lg">
      <Stack>
        <ListTable
          query={runs}
          label="Runs"
          empty="No matching signal yet"
          columns={['When', 'Outcome', 'Actions']}
          rowsOf={(data) => data.actionSetEvents}
          rowKey={(run) => run.id}
          cells={(run) => (
            <>
              <Table.Td>
                <Text size="xs">{new Date(run.createdAt).toLocaleString()}</Text>
              </Table.Td>
              <Table.Td>
                <Badge
                  variant="light"
                  color={run.state === 'success' ? 'green' : run.state === 'failed' ? 'red' : 'gray'}
                >
                  {run.state}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Text size="sm">
                  {(run.actions as ActionOutcome[])
                    .map(
                      (action) =>
                        `${action.action ?? ''}: ${action.state ?? ''}${action.details ? ` (${action.details})` : ''}`,
                    )
                    .join('; ')}
                </Text>
              </Table.Td>
            </>
          )}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Done
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A project's action sets (Unleash's actions): what a signal from outside switches, as whom, and how each run went. */
export default function ActionSetsPage() {
  const project = useParams().projectId ?? '';
  const admin = usePermission()('ADMIN');
  const sets = useActionSets(project, admin.allowed);
  const endpoints = useSignalEndpoints(admin.allowed);
  const [creating, setCreating] = useState(false);
  const [runsOf, setRunsOf] = useState<ActionSet | null>(null);
  const toggle = useSwitchActionSet(project);
  const deleteSet = useDeleteActionSet(project);
  const endpointName = (id: number) =>
    endpoints.data?.signalEndpoints.find((endpoint) => endpoint.id === id)?.name ?? `#${id}`;
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
      <Title order={1}>Actions</Title>
      <CreateButton permission={admin} onClick={() => setCreating(true)}>
        New action set
      </CreateButton>
      {!admin.allowed ? (
        <Text>{admin.reason}</Text>
      ) : (
        <ListTable
          query={sets}
          label="Action sets"
          empty="No action sets yet"
          emptyHint="A signal endpoint's signals can switch this project's flags: make an action set to say which."
          columns={['Name', 'Signal endpoint', 'Filters', 'Actions', 'Enabled', '']}
          rowsOf={(data) => data.actions}
          rowKey={(set) => set.id}
          cells={(set) => (
            <>
              <Table.Td>
                <Button
                  variant="subtle"
                  size="compact-sm"
                  onClick={() => setRunsOf(set)}
                  aria-label={`Runs of ${set.name}`}
                >
                  {set.name}
                </Button>
              </Table.Td>
              <Table.Td>{endpointName(set.match.sourceId)}</Table.Td>
              <Table.Td>
                {Object.entries(set.match.payload ?? {}).map(([path, filter]) => (
                  <Code
                    key={path}
                    mr={4}
                  >{`${path} ${OPERATOR_LABELS[filter.operator] ?? filter.operator} ${filter.value ?? (filter.values ?? []).join(', ')}`}</Code>
                ))}
              </Table.Td>
              <Table.Td>
                <Text size="sm">
                  {set.actions
                    .map(
                      (action) =>
                        `${action.action === 'ENABLE_FEATURE' ? 'on' : 'off'}: ${action.executionParams.featureName} in ${action.executionParams.environment}`,
                    )
                    .join('; ')}
                </Text>
              </Table.Td>
              <Table.Td>
                <Switch
                  aria-label={`Action set ${set.name} enabled`}
                  checked={set.enabled !== false}
                  onChange={() => toggle.mutate({ id: set.id, enabled: set.enabled !== false })}
                />
              </Table.Td>
              <Table.Td>
                <DeleteButton
                  what={`the action set ${set.name}`}
                  title="Delete this action set?"
                  message="Signals no longer run its actions."
                  onConfirm={() => deleteSet.mutate(set.id)}
                />
              </Table.Td>
            </>
          )}
        />
      )}
      {creating ? <NewActionSetModal project={project} onClose={() => setCreating(false)} /> : null}
      {runsOf ? <RunsModal project={project} set={runsOf} onClose={() => setRunsOf(null)} /> : null}
    </Stack>
  );
}
