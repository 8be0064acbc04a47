import {
  Alert,
  Autocomplete,
  Badge,
  Button,
  CloseButton,
  Group,
  Menu,
  MultiSelect,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { Fragment, useState, type FormEvent } from 'react';
import type { AdvancedPlaygroundEvaluation } from '@bunting/contracts';
import { fieldError } from '../api/http.ts';
import { useContextFields } from '../context-fields/context-field-queries.ts';
import { useEnvironments } from '../environments/environment-queries.ts';
import { useProjects } from '../projects/project-queries.ts';
import { Empty } from '../ui/states.tsx';
import { Explanation } from './explanation.tsx';
import { useAdvancedPlayground } from './playground-queries.ts';
import {
  emptyContext,
  forgetContext,
  loadSaved,
  saveContext,
  toRequestContext,
  type ContextDraft,
  type SavedContext,
} from './playground-context.ts';

function Answer({ evaluations }: { evaluations: AdvancedPlaygroundEvaluation[] | undefined }) {
  if (!evaluations || evaluations.length === 0)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  const on = evaluations.filter((evaluation) => evaluation.isEnabled).length;
  const first = evaluations[0]!;
  if (evaluations.length > 1)
    return (
      <Badge color={on === evaluations.length ? 'green' : on === 0 ? 'gray' : 'yellow'} variant="light">
        {on} of {evaluations.length} on
      </Badge>
    );
  return (
    <Group gap={4}>
      <Badge color={first.isEnabled ? 'green' : 'gray'} variant="light">
        {first.isEnabled ? 'on' : 'off'}
      </Badge>
      {first.variant.enabled ? (
        <Badge variant="outline" tt="none">
          {first.variant.name}
        </Badge>
      ) : null}
    </Group>
  );
}

/** What every flag of a project answers for a context, in each environment, and why. */
export default function PlaygroundPage() {
  const projects = useProjects();
  const environments = useEnvironments();
  const [project, setProject] = useState<string | null>(null);
  const chosenProject = project ?? projects.data?.projects[0]?.id ?? null;
  const fields = useContextFields(chosenProject ?? undefined);
  const [chosenEnvironments, setChosenEnvironments] = useState<string[]>([]);
  const [context, setContext] = useState<ContextDraft>(emptyContext);
  const [saved, setSaved] = useState<SavedContext[]>(() => loadSaved(window.localStorage));
  const [saveName, setSaveName] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const environmentNames = (environments.data ?? [])
    .filter((environment) => environment.enabled)
    .map((environment) => environment.name);
  const selectedEnvironments = chosenEnvironments.length > 0 ? chosenEnvironments : environmentNames;
  const run = useAdvancedPlayground();
  const set = (field: keyof Omit<ContextDraft, 'properties'>, value: string) =>
    setContext({ ...context, [field]: value });
  const setProperty = (index: number, row: { name: string; value: string }) =>
    setContext({ ...context, properties: context.properties.map((current, at) => (at === index ? row : current)) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    run.mutate({
      environments: selectedEnvironments,
      projects: chosenProject ? [chosenProject] : '*',
      context: toRequestContext(context),
    });
  };
  const standard = new Set(['appName', 'userId', 'sessionId', 'remoteAddress', 'currentTime', 'environment']);
  const propertyNames = (fields.data ?? []).map((field) => field.name).filter((name) => !standard.has(name));
  const results = run.data?.features ?? [];
  const shownEnvironments = run.data?.input.environments ?? selectedEnvironments;
  return (
    <Stack>
      <Title order={1}>Playground</Title>
      <Text c="dimmed" size="sm">
        Try a context against a project's flags: see what each environment answers and which strategy decides it.
      </Text>
      <Paper withBorder p="md">
        <form onSubmit={submit} aria-label="Context">
          <Stack>
            <Group align="flex-end">
              <Select
                label="Project"
                w={220}
                allowDeselect={false}
                data={(projects.data?.projects ?? []).map((item) => ({ value: item.id, label: item.name }))}
                value={chosenProject}
                onChange={setProject}
              />
              <MultiSelect
                label="Environments"
                w={320}
                data={environmentNames}
                value={selectedEnvironments}
                onChange={setChosenEnvironments}
              />
              {saved.length > 0 ? (
                <Menu>
                  <Menu.Target>
                    <Button variant="default">Saved contexts</Button>
                  </Menu.Target>
                  <Menu.Dropdown>
                    {saved.map((entry) => (
                      <Group key={entry.name} gap={0} wrap="nowrap">
                        <Menu.Item
                          onClick={() => {
                            setContext(entry.context);
                            setSaveName(entry.name);
                          }}
                        >
                          {entry.name}
                        </Menu.Item>
                        <CloseButton
                          size="sm"
                          aria-label={`Forget ${entry.name}`}
                          onClick={() => setSaved(forgetContext(window.localStorage, entry.name))}
                        />
                      </Group>
                    ))}
                  </Menu.Dropdown>
                </Menu>
              ) : null}
            </Group>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
              <TextInput
                label="appName"
                value={context.appName}
                onChange={(event) => set('appName', event.currentTarget.value)}
                error={fieldError(run.error, 'context.appName')}
              />
              <TextInput
                label="userId"
                description="Commas try several values at once"
                value={context.userId}
                onChange={(event) => set('userId', event.currentTarget.value)}
              />
              <TextInput
                label="sessionId"
                value={context.sessionId}
                onChange={(event) => set('sessionId', event.currentTarget.value)}
              />
              <TextInput
                label="remoteAddress"
                value={context.remoteAddress}
                onChange={(event) => set('remoteAddress', event.currentTarget.value)}
              />
              <TextInput
                label="currentTime"
                placeholder="2026-01-31T12:00:00Z"
                value={context.currentTime}
                onChange={(event) => set('currentTime', event.currentTarget.value)}
              />
            </SimpleGrid>
            {context.properties.map((row, index) => (
              <Group key={index} align="flex-end" role="group" aria-label={`Property ${index + 1}`}>
                <Autocomplete
                  label="Property"
                  w={200}
                  data={propertyNames}
                  value={row.name}
                  onChange={(name) => setProperty(index, { ...row, name })}
                />
                <TextInput
                  label="Value"
                  w={260}
                  value={row.value}
                  onChange={(event) => setProperty(index, { ...row, value: event.currentTarget.value })}
                />
                <CloseButton
                  mb={6}
                  aria-label={`Remove property ${index + 1}`}
                  onClick={() =>
                    setContext({ ...context, properties: context.properties.filter((_, at) => at !== index) })
                  }
                />
              </Group>
            ))}
            <Group justify="space-between">
              <Button
                variant="subtle"
                onClick={() =>
                  setContext({
                    ...context,
                    properties: [...context.properties, { name: propertyNames[0] ?? '', value: '' }],
                  })
                }
              >
                Add property
              </Button>
              <Group align="flex-end">
                <TextInput
                  aria-label="Name for this context"
                  placeholder="Name to save as"
                  w={180}
                  value={saveName}
                  onChange={(event) => setSaveName(event.currentTarget.value)}
                />
                <Button
                  variant="default"
                  disabled={!saveName.trim()}
                  onClick={() => setSaved(saveContext(window.localStorage, saveName.trim(), context))}
                >
                  Save context
                </Button>
                <Button type="submit" loading={run.isPending} disabled={selectedEnvironments.length === 0}>
                  Try it
                </Button>
              </Group>
            </Group>
          </Stack>
        </form>
      </Paper>
      {run.error ? (
        <Alert color="red" role="alert" title="The playground could not answer">
          {run.error.message}
        </Alert>
      ) : null}
      {run.data ? (
        results.length === 0 ? (
          <Empty title="This project has no flags" />
        ) : (
          <Table aria-label="Answers" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Flag</Table.Th>
                {shownEnvironments.map((environment) => (
                  <Table.Th key={environment}>{environment}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {results.map((feature) => (
                <Fragment key={feature.name}>
                  <Table.Tr>
                    <Table.Td>
                      <UnstyledButton
                        onClick={() => setOpen(open === feature.name ? null : feature.name)}
                        aria-expanded={open === feature.name}
                        aria-label={`Why ${feature.name} answers so`}
                      >
                        <Text ff="monospace" fw={600} size="sm">
                          {open === feature.name ? '▾' : '▸'} {feature.name}
                        </Text>
                      </UnstyledButton>
                    </Table.Td>
                    {shownEnvironments.map((environment) => (
                      <Table.Td key={environment}>
                        <Answer evaluations={feature.environments[environment]} />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                  {open === feature.name ? (
                    <Table.Tr>
                      <Table.Td colSpan={shownEnvironments.length + 1}>
                        <SimpleGrid cols={{ base: 1, md: Math.min(3, shownEnvironments.length) }}>
                          {shownEnvironments.map((environment) => (
                            <Stack key={environment} gap={4}>
                              <Text fw={600} size="sm">
                                {environment}
                              </Text>
                              {(feature.environments[environment] ?? []).slice(0, 5).map((evaluation, index) => (
                                <Stack key={index} gap={2}>
                                  {(feature.environments[environment] ?? []).length > 1 ? (
                                    <Text size="xs" c="dimmed">
                                      {JSON.stringify(evaluation.context)}
                                    </Text>
                                  ) : null}
                                  <Explanation evaluation={evaluation} />
                                </Stack>
                              ))}
                            </Stack>
                          ))}
                        </SimpleGrid>
                      </Table.Td>
                    </Table.Tr>
                  ) : null}
                </Fragment>
              ))}
            </Table.Tbody>
          </Table>
        )
      ) : null}
    </Stack>
  );
}
