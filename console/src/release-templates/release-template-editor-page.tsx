import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Group,
  Menu,
  NumberInput,
  Paper,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  impactDisplayName,
  type CreateFeatureStrategy,
  type FeatureStrategy,
  type StrategyDefinition,
} from '@bunting/contracts';
import { fieldError, messageOf } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { useContextFields } from '../context-fields/context-field-queries.ts';
import type { SafeguardBody } from '../safeguards/safeguard-body.ts';
import { SafeguardModal } from '../safeguards/safeguard-form.tsx';
import { useSegments } from '../segments/segment-queries.ts';
import { draftOf, newStrategyDraft } from '../strategies/strategy-draft.ts';
import { StrategyForm, strategyLabel } from '../strategies/strategy-editor.tsx';
import { strategySummary } from '../strategy-definitions/strategy-summary.ts';
import { useStrategyDefinitions } from '../strategy-definitions/strategy-definition-queries.ts';
import { Failed, Loading } from '../ui/states.tsx';
import { useCreateReleaseTemplate, useReleaseTemplate, useUpdateReleaseTemplate } from './release-template-queries.ts';
import {
  movedMilestone,
  newMilestone,
  newTemplateDraft,
  templateBody,
  templateDraftOf,
  templateProblem,
  type MilestoneDraft,
  type TemplateDraft,
  type TemplateSafeguardDraft,
} from './template-draft.ts';

type Editing = { milestone: number; strategy: number | null; name: string } | null;

/**
 * Strategy definitions as a template's strategies take them: a group id may be left empty, and becomes the name of
 * each flag the template is applied to (so flags keep rolling out to different users).
 */
const forTemplates = (definitions: readonly StrategyDefinition[]): StrategyDefinition[] =>
  definitions.map((definition) => ({
    ...definition,
    parameters: definition.parameters.map((parameter) =>
      parameter.name === 'groupId'
        ? {
            ...parameter,
            required: false,
            description: "Empty: the flag's name, on each flag the template is applied to",
          }
        : parameter,
    ),
  }));

/** A milestone's strategy in the shape the strategy form edits (a flag's strategy). */
const asStrategy = (strategy: CreateFeatureStrategy & { id?: string }): FeatureStrategy => ({
  id: strategy.id ?? '',
  featureName: '',
  sortOrder: strategy.sortOrder ?? 0,
  name: strategy.name,
  title: strategy.title ?? null,
  disabled: strategy.disabled ?? false,
  parameters: strategy.parameters ?? {},
  constraints: strategy.constraints ?? [],
  variants: strategy.variants ?? [],
  segments: strategy.segments ?? [],
});

/** A milestone: its name, its strategies, and how long before the next one starts on its own. */
function MilestoneCard({
  milestone,
  index,
  last,
  onChange,
  onMove,
  onRemove,
  onEditStrategy,
  definitions,
}: {
  milestone: MilestoneDraft;
  index: number;
  last: boolean;
  onChange: (next: MilestoneDraft) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  onEditStrategy: (strategy: number | null, name: string) => void;
  definitions: Parameters<typeof strategyLabel>[0];
}) {
  const headingId = `milestone-${milestone.key}`;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end">
          <Group gap="sm" align="flex-end">
            <Title order={3} size="h5" id={headingId}>
              Milestone {index + 1}
            </Title>
            <TextInput
              label="Name"
              value={milestone.name}
              onChange={(event) => onChange({ ...milestone, name: event.currentTarget.value })}
              aria-label={`Name of milestone ${index + 1}`}
            />
          </Group>
          <Group gap={4}>
            <ActionIcon
              variant="subtle"
              aria-label={`Move milestone ${index + 1} up`}
              disabled={index === 0}
              onClick={() => onMove(-1)}
            >
              ↑
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              aria-label={`Move milestone ${index + 1} down`}
              disabled={last}
              onClick={() => onMove(1)}
            >
              ↓
            </ActionIcon>
            <Button
              size="compact-sm"
              variant="subtle"
              color="red"
              onClick={onRemove}
              aria-label={`Remove milestone ${index + 1}`}
            >
              Remove
            </Button>
          </Group>
        </Group>
        {milestone.strategies.length === 0 ? (
          <Text size="sm" c="dimmed">
            No strategies: the flag is on for everyone while this milestone runs.
          </Text>
        ) : null}
        {milestone.strategies.map((strategy, position) => (
          <Group key={position} justify="space-between" wrap="nowrap">
            <Text size="sm">
              <b>{strategyLabel(definitions, strategy.name)}</b>:{' '}
              {strategySummary({ name: strategy.name, parameters: strategy.parameters ?? {} })}
              {strategy.constraints?.length ? `, ${strategy.constraints.length} constraint(s)` : ''}
            </Text>
            <Group gap={4} wrap="nowrap">
              <Button
                size="compact-sm"
                variant="subtle"
                onClick={() => onEditStrategy(position, strategy.name)}
                aria-label={`Edit strategy ${position + 1} of milestone ${index + 1}`}
              >
                Edit
              </Button>
              <Button
                size="compact-sm"
                variant="subtle"
                color="red"
                onClick={() =>
                  onChange({ ...milestone, strategies: milestone.strategies.filter((_, at) => at !== position) })
                }
                aria-label={`Remove strategy ${position + 1} of milestone ${index + 1}`}
              >
                Remove
              </Button>
            </Group>
          </Group>
        ))}
        <Group justify="space-between" align="flex-end">
          <Menu position="bottom-start">
            <Menu.Target>
              <Button size="xs" variant="light" aria-label={`Add strategy to milestone ${index + 1}`}>
                Add strategy
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {definitions
                .filter((definition) => !definition.deprecated)
                .map((definition) => (
                  <Menu.Item key={definition.name} onClick={() => onEditStrategy(null, definition.name)}>
                    {strategyLabel(definitions, definition.name)}
                  </Menu.Item>
                ))}
            </Menu.Dropdown>
          </Menu>
          {last ? (
            <Text size="xs" c="dimmed">
              The last milestone runs until the plan is removed.
            </Text>
          ) : (
            <>
              <NumberInput
                label="Move on after (minutes)"
                description="Empty: started by hand"
                min={1}
                allowDecimal={false}
                w={220}
                value={milestone.interval}
                onChange={(value) => onChange({ ...milestone, interval: String(value) })}
                aria-label={`Minutes before milestone ${index + 2} of milestone ${index + 1}`}
              />
              <Checkbox
                label="and only once the guardrails call it safe"
                disabled={milestone.interval.trim() === ''}
                checked={milestone.waitForGuardrails}
                onChange={(event) => onChange({ ...milestone, waitForGuardrails: event.currentTarget.checked })}
                aria-label={`Milestone ${index + 1} waits for the guardrails`}
              />
            </>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

/** What a safeguard watches and when it acts, in a line. */
function safeguardLine(safeguard: TemplateSafeguardDraft): string {
  const metric = impactDisplayName(safeguard.impactMetric.metricName);
  if (safeguard.comparison) {
    const way = safeguard.comparison.harm === 'increase' ? 'higher' : 'lower';
    return `Guardrail on ${metric}: pauses the plan when it is significantly ${way} for the users who get the change than for those who do not.`;
  }
  const trigger = safeguard.triggerCondition!;
  return `Threshold on ${metric}: pauses the plan when it goes ${trigger.operator === '>' ? 'above' : 'below'} ${trigger.threshold}.`;
}

/** The safeguards every plan made from the template starts with, each added through the safeguard form. */
function TemplateSafeguards({
  safeguards,
  onChange,
}: {
  safeguards: readonly TemplateSafeguardDraft[];
  onChange: (safeguards: TemplateSafeguardDraft[]) => void;
}) {
  const [adding, setAdding] = useState(false);
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          Safeguards of every plan
        </Title>
        <Text size="sm" c="dimmed">
          Each plan made from this template starts watching these: a guardrail compares the users who get the change
          with those who do not; a threshold watches a number.
        </Text>
        {safeguards.map((safeguard, index) => (
          <Group key={index} justify="space-between" wrap="nowrap">
            <Text size="sm" style={{ flex: 1 }}>
              {safeguardLine(safeguard)}
            </Text>
            <Button
              size="compact-sm"
              variant="subtle"
              style={{ flexShrink: 0 }}
              color="red"
              onClick={() => onChange(safeguards.filter((_, at) => at !== index))}
            >
              Remove
            </Button>
          </Group>
        ))}
        <Group>
          <Button variant="light" onClick={() => setAdding(true)}>
            Add safeguard
          </Button>
        </Group>
      </Stack>
      {adding ? (
        <SafeguardModal
          title="Add a safeguard to every plan"
          effect="the plan pauses"
          existing={null}
          pending={false}
          error={null}
          onSave={(body) => {
            onChange([...safeguards, { impactMetric: body.impactMetric, ...conditionOf(body) }]);
            setAdding(false);
          }}
          onClose={() => setAdding(false)}
        />
      ) : null}
    </Paper>
  );
}

const conditionOf = (body: SafeguardBody) => ({
  ...(body.triggerCondition ? { triggerCondition: body.triggerCondition } : {}),
  ...(body.comparison ? { comparison: body.comparison } : {}),
});

function Editor({ initial, templateId }: { initial: TemplateDraft; templateId: string | undefined }) {
  const navigate = useNavigate();
  const can = usePermission();
  const definitions = useStrategyDefinitions();
  const fields = useContextFields();
  const segments = useSegments();
  const [draft, setDraft] = useState(initial);
  const [editing, setEditing] = useState<Editing>(null);
  const create = useCreateReleaseTemplate();
  const update = useUpdateReleaseTemplate(templateId ?? '');
  const save = templateId ? update : create;
  const problem = templateProblem(draft);
  const allowed = can(templateId ? 'RELEASE_PLAN_TEMPLATE_UPDATE' : 'RELEASE_PLAN_TEMPLATE_CREATE');
  const setMilestone = (index: number, next: MilestoneDraft) =>
    setDraft({ ...draft, milestones: draft.milestones.map((milestone, at) => (at === index ? next : milestone)) });
  const submit = () => {
    if (problem) return;
    const body = templateBody(draft);
    if (templateId) update.mutate(body, { onSuccess: () => void navigate('/admin/release-templates') });
    else create.mutate(body, { onSuccess: () => void navigate('/admin/release-templates') });
  };
  const editedMilestone = editing ? draft.milestones[editing.milestone] : undefined;
  const editedStrategy =
    editing && editing.strategy !== null ? editedMilestone?.strategies[editing.strategy] : undefined;
  const saveStrategy = (body: CreateFeatureStrategy) => {
    if (!editing || !editedMilestone) return;
    const strategies =
      editing.strategy === null
        ? [...editedMilestone.strategies, body]
        : editedMilestone.strategies.map((strategy, at) =>
            at === editing.strategy ? { ...body, ...(strategy.id ? { id: strategy.id } : {}) } : strategy,
          );
    setMilestone(editing.milestone, { ...editedMilestone, strategies });
    setEditing(null);
  };
  return (
    <Stack maw={900}>
      <Title order={2} size="h3">
        {templateId ? `Release template ${initial.name}` : 'New release template'}
      </Title>
      <TextInput
        label="Name"
        required
        value={draft.name}
        onChange={(event) => setDraft({ ...draft, name: event.currentTarget.value })}
        error={fieldError(save.error, 'name')}
      />
      <Textarea
        label="Description"
        value={draft.description}
        onChange={(event) => setDraft({ ...draft, description: event.currentTarget.value })}
        autosize
        minRows={1}
      />
      {draft.milestones.map((milestone, index) => (
        <MilestoneCard
          key={milestone.key}
          milestone={milestone}
          index={index}
          last={index === draft.milestones.length - 1}
          definitions={definitions.data ?? []}
          onChange={(next) => setMilestone(index, next)}
          onMove={(by) => setDraft({ ...draft, milestones: movedMilestone(draft.milestones, index, by) })}
          onRemove={() => setDraft({ ...draft, milestones: draft.milestones.filter((_, at) => at !== index) })}
          onEditStrategy={(strategy, name) => setEditing({ milestone: index, strategy, name })}
        />
      ))}
      <Group>
        <Button
          variant="light"
          onClick={() =>
            setDraft({
              ...draft,
              milestones: [...draft.milestones, newMilestone(`Milestone ${draft.milestones.length + 1}`)],
            })
          }
        >
          Add milestone
        </Button>
      </Group>
      <TemplateSafeguards safeguards={draft.safeguards} onChange={(safeguards) => setDraft({ ...draft, safeguards })} />
      {problem ? (
        <Text size="sm" c="dimmed">
          {problem}
        </Text>
      ) : null}
      {save.error ? (
        <Alert color="red" role="alert" title="Not saved">
          {messageOf(save.error)}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={() => void navigate('/admin/release-templates')}>
          Cancel
        </Button>
        <Button
          onClick={submit}
          loading={save.isPending}
          disabled={problem !== null || !allowed.allowed}
          title={allowed.reason}
        >
          Save release template
        </Button>
      </Group>
      {editing && editedMilestone ? (
        <StrategyForm
          heading={`${editedStrategy ? 'Edit' : 'Add'} ${strategyLabel(definitions.data ?? [], editing.name)} in ${editedMilestone.name}`}
          initial={
            editedStrategy
              ? draftOf(asStrategy(editedStrategy))
              : newStrategyDraft(
                  (definitions.data ?? []).find((one) => one.name === editing.name),
                  editing.name,
                  '',
                )
          }
          project="default"
          definitions={forTemplates(definitions.data ?? [])}
          fields={fields.data ?? []}
          segments={(segments.data ?? []).filter((segment) => segment.project === null)}
          onSubmit={saveStrategy}
          pending={false}
          error={null}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </Stack>
  );
}

/** A release template's editor: its milestones as ordered cards, each with the strategy editor flags use. */
export default function ReleaseTemplateEditorPage() {
  const { templateId } = useParams();
  const template = useReleaseTemplate(templateId);
  const [initial, setInitial] = useState<TemplateDraft | null>(templateId ? null : newTemplateDraft());
  useEffect(() => {
    if (template.data && initial === null) setInitial(templateDraftOf(template.data));
  }, [template.data, initial]);
  if (templateId && template.isError) return <Failed error={template.error} />;
  if (!initial) return <Loading label="Loading the release template" />;
  return <Editor initial={initial} templateId={templateId} />;
}
