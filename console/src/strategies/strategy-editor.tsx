import { Alert, Badge, Button, Group, Modal, MultiSelect, Stack, Switch, Tabs, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type {
  ContextField,
  CreateFeatureStrategy,
  FeatureStrategy,
  Segment,
  StrategyDefinition,
} from '@bunting/contracts';
import { fieldError, messageOf } from '../api/http.ts';
import { ConstraintEditor } from '../constraints/constraint-editor.tsx';
import { segmentsQuery } from '../segments/segment-queries.ts';
import { VariantsEditor } from '../variants/variants-editor.tsx';
import { stickinessOptions } from '../context-fields/stickiness.ts';
import { draftOf, draftProblems, newStrategyDraft, strategyBody, type StrategyDraft } from './strategy-draft.ts';
import { StrategyParameters } from './strategy-parameters.tsx';
import { useStrategyChanges } from './strategy-queries.ts';

type Props = {
  project: string;
  flag: string;
  environment: string;
  /** The strategy edited, or the definition of the one being added. */
  editing: { strategy: FeatureStrategy } | { add: string };
  definitions: StrategyDefinition[];
  fields: ContextField[];
  segments: Segment[];
  onClose: () => void;
};

export const strategyLabel = (definitions: readonly StrategyDefinition[], name: string) =>
  definitions.find((definition) => definition.name === name)?.displayName ??
  definitions.find((definition) => definition.name === name)?.title ??
  name;

/** Adds or edits one strategy of a flag in an environment; a failed save keeps everything typed. */
export function StrategyEditor({ project, flag, environment, editing, definitions, fields, segments, onClose }: Props) {
  const name = 'strategy' in editing ? editing.strategy.name : editing.add;
  // Where change requests are on, the strategy goes into the user's draft instead of straight to the flag.
  const changes = useStrategyChanges(project, flag, environment);
  const save = 'strategy' in editing ? changes.update : changes.add;
  const send = (body: CreateFeatureStrategy) =>
    'strategy' in editing
      ? changes.update.mutate({ id: editing.strategy.id, body }, { onSuccess: onClose })
      : changes.add.mutate(body, { onSuccess: onClose });
  const definition = definitions.find((candidate) => candidate.name === name);
  return (
    <StrategyForm
      heading={`${'strategy' in editing ? 'Edit' : 'Add'} ${strategyLabel(definitions, name)} in ${environment}`}
      initial={'strategy' in editing ? draftOf(editing.strategy) : newStrategyDraft(definition, name, flag)}
      project={project}
      definitions={definitions}
      fields={fields}
      segments={segments}
      onSubmit={send}
      pending={save.isPending}
      error={save.error}
      onClose={onClose}
    />
  );
}

type FormProps = {
  heading: string;
  initial: StrategyDraft;
  /** The project whose segments (and the global ones) may be used. */
  project: string;
  definitions: StrategyDefinition[];
  fields: ContextField[];
  segments: Segment[];
  onSubmit: (body: CreateFeatureStrategy) => void;
  pending: boolean;
  error: unknown;
  onClose: () => void;
};

/**
 * A strategy's form (parameters, constraints, segments, variants), whatever it belongs to: a flag's environment, or
 * a release template's milestone. It checks what it can before sending, and keeps everything typed when refused.
 */
export function StrategyForm({
  heading,
  initial,
  project,
  definitions,
  fields,
  segments,
  onSubmit,
  pending,
  error,
  onClose,
}: FormProps) {
  const name = initial.name;
  const definition = definitions.find((candidate) => candidate.name === name);
  const [draft, setDraft] = useState<StrategyDraft>(initial);
  const [attempted, setAttempted] = useState(false);
  const send = (body: StrategyDraft) => onSubmit(strategyBody(body));
  const problems = draftProblems(draft, definition);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    if (problems.any) return;
    send(draft);
  };
  const constraintErrors = draft.constraints.map(
    (_, index) => fieldError(error, `constraints[${index}]`) ?? (attempted ? problems.constraints[index] : undefined),
  );
  const parameterErrors = Object.fromEntries(
    (definition?.parameters ?? []).map((parameter) => [
      parameter.name,
      fieldError(error, `parameters.${parameter.name}`) ??
        (attempted ? problems.parameters[parameter.name] : undefined),
    ]),
  );
  // Segments made since the page loaded (in another tab, by a colleague) are offered too.
  const fresh = useQuery({ ...segmentsQuery(), refetchOnMount: 'always' });
  const available = (fresh.data ?? segments).filter(
    (candidate) => candidate.project === null || candidate.project === project,
  );
  const count = (n: number) =>
    n > 0 ? (
      <Badge size="xs" variant="light" circle>
        {n}
      </Badge>
    ) : null;
  return (
    <Modal opened onClose={onClose} size="xl" title={heading}>
      <form onSubmit={submit} noValidate>
        <Stack>
          {definition?.description ? (
            <Text size="sm" c="dimmed">
              {definition.description}
            </Text>
          ) : null}
          <Tabs defaultValue="general" keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="general">General</Tabs.Tab>
              <Tabs.Tab value="constraints" rightSection={count(draft.constraints.length)}>
                Constraints
              </Tabs.Tab>
              <Tabs.Tab value="segments" rightSection={count(draft.segments.length)}>
                Segments
              </Tabs.Tab>
              <Tabs.Tab value="variants" rightSection={count(draft.variants.length)}>
                Variants
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="general" pt="md">
              <Stack>
                <TextInput
                  label="Title"
                  description="Optional: what this strategy is for"
                  value={draft.title}
                  onChange={(event) => setDraft({ ...draft, title: event.currentTarget.value })}
                  error={fieldError(error, 'title')}
                />
                {definition ? (
                  <StrategyParameters
                    definition={definition}
                    parameters={draft.parameters}
                    onChange={(parameters) => setDraft({ ...draft, parameters })}
                    fields={fields}
                    errors={parameterErrors}
                  />
                ) : (
                  <Text c="red">Unknown strategy {name}</Text>
                )}
                <Switch
                  label="Disabled"
                  description="A disabled strategy is kept but never applies"
                  checked={draft.disabled}
                  onChange={(event) => setDraft({ ...draft, disabled: event.currentTarget.checked })}
                />
              </Stack>
            </Tabs.Panel>
            <Tabs.Panel value="constraints" pt="md">
              <ConstraintEditor
                constraints={draft.constraints}
                fields={fields}
                onChange={(constraints) => setDraft({ ...draft, constraints })}
                errors={constraintErrors}
              />
            </Tabs.Panel>
            <Tabs.Panel value="segments" pt="md">
              <MultiSelect
                label="Segments"
                description="Every segment's constraints must hold too"
                searchable
                clearable
                data={available.map((candidate) => ({ value: String(candidate.id), label: candidate.name }))}
                value={draft.segments.map(String)}
                onChange={(ids) => setDraft({ ...draft, segments: ids.map(Number) })}
                error={fieldError(error, 'segments')}
                nothingFoundMessage="No segment has that name"
              />
            </Tabs.Panel>
            <Tabs.Panel value="variants" pt="md">
              <VariantsEditor
                drafts={draft.variants}
                onChange={(variants) => setDraft({ ...draft, variants })}
                stickinessOptions={stickinessOptions(fields)}
              />
            </Tabs.Panel>
          </Tabs>
          {attempted && problems.any && !error ? (
            <Alert color="orange" role="alert">
              Some fields need attention before this can be saved
              {problems.constraints.some(Boolean) ? ' (see Constraints)' : ''}
              {problems.variants ? ' (see Variants)' : ''}.
            </Alert>
          ) : null}
          {error ? (
            <Alert color="red" role="alert" title="Not saved">
              {messageOf(error)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={pending}>
              Save strategy
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
