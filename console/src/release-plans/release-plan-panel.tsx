import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NativeSelect,
  NumberInput,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { impactDisplayName, Permission, type FeatureEnvironment } from '@bunting/contracts';
import { usePermission } from '../api/session.ts';
import { ImpactChartView } from '../impact-metrics/impact-chart-view.tsx';
import { useProjectReleaseTemplates } from '../release-templates/release-template-queries.ts';
import { strategySummary } from '../strategy-definitions/strategy-summary.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { DeleteButton } from '../ui/delete-button.tsx';
import { Guarded } from '../ui/guarded.tsx';
import { planTimeline, type MilestoneStatus } from './plan-timeline.ts';
import { useReleasePlanChanges } from './release-plan-queries.ts';
import { SafeguardModal } from '../safeguards/safeguard-form.tsx';
import { DecisionBadge, GuardrailReading } from './guardrail-reading.tsx';

type Plan = NonNullable<FeatureEnvironment['releasePlans']>[number];
type AnySafeguard = Plan['safeguards'][number] | NonNullable<FeatureEnvironment['safeguards']>[number];

const STATUS: Record<MilestoneStatus, { label: string; color: string }> = {
  done: { label: 'done', color: 'gray' },
  active: { label: 'active', color: 'green' },
  next: { label: 'next', color: 'blue' },
  later: { label: 'later', color: 'gray' },
};
const time = (iso: string) => new Date(iso).toLocaleString();

function ApplyTemplateModal({
  project,
  onApply,
  pending,
  onClose,
}: {
  project: string;
  onApply: (templateId: string) => void;
  pending: boolean;
  onClose: () => void;
}) {
  const templates = useProjectReleaseTemplates(project);
  const offered = (templates.data ?? []).filter(
    (template) => template.archivedAt === null && template.milestones.length > 0,
  );
  const [chosen, setChosen] = useState('');
  const picked = offered.find((template) => template.id === (chosen || offered[0]?.id));
  return (
    <Modal opened onClose={onClose} title="Apply a release template">
      <Stack>
        {offered.length === 0 ? (
          <Text size="sm">No release template yet: make one under Admin, Release templates.</Text>
        ) : (
          <>
            <NativeSelect
              label="Template"
              value={picked?.id ?? ''}
              onChange={(event) => setChosen(event.currentTarget.value)}
              data={offered.map((template) => ({ value: template.id, label: template.name }))}
            />
            {picked ? (
              <Text size="sm" c="dimmed">
                {picked.milestones.map((milestone) => milestone.name).join(' → ')}
              </Text>
            ) : null}
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={!picked} loading={pending} onClick={() => picked && onApply(picked.id)}>
            Apply template
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function SafeguardSummary({
  safeguard,
  onEdit,
  onRemove,
  disabled,
}: {
  safeguard: AnySafeguard;
  onEdit: () => void;
  onRemove: () => void;
  disabled: boolean;
}) {
  const metric = safeguard.impactMetric;
  const label = impactDisplayName(metric.metricName);
  const comparison = safeguard.comparison ?? null;
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        {comparison ? (
          <Text size="sm">
            <b>Guardrail</b>: {label}, harm if it goes {comparison.harm === 'increase' ? 'up' : 'down'} with the change
            <DecisionBadge decision={safeguard.lastComparison?.decision ?? null} />
            {safeguard.triggeredAt ? (
              <Badge ml="xs" color="red" variant="light">
                acted at {time(safeguard.triggeredAt)}
              </Badge>
            ) : null}
          </Text>
        ) : (
          <Text size="sm">
            <b>Safeguard</b>: {label} ({metric.aggregationMode}, {metric.timeRange}){' '}
            {safeguard.triggerCondition.operator === '>' ? 'above' : 'below'} {safeguard.triggerCondition.threshold}
            {safeguard.triggeredAt ? (
              <Badge ml="xs" color="red" variant="light">
                tripped at {time(safeguard.triggeredAt)}, read {safeguard.triggeredValue}
              </Badge>
            ) : (
              <Badge ml="xs" color="green" variant="light">
                holding
              </Badge>
            )}
          </Text>
        )}
        <Group gap={4}>
          <Button size="compact-sm" variant="subtle" onClick={onEdit} disabled={disabled}>
            Change safeguard
          </Button>
          <DeleteButton
            verb="Remove"
            what="the safeguard"
            disabled={disabled}
            title="Remove this safeguard?"
            message="Nothing watches the metric for this release any more."
            onConfirm={onRemove}
          />
        </Group>
      </Group>
      {safeguard.lastError ? (
        <Text size="xs" c="orange">
          Last reading skipped: {safeguard.lastError}
        </Text>
      ) : null}
      {comparison ? <GuardrailReading metric={label} reading={safeguard.lastComparison ?? null} /> : null}
      <ImpactChartView
        title={comparison ? `${label}, everyone` : `${label}, with the safeguard's threshold`}
        {...(comparison ? {} : { threshold: safeguard.triggerCondition.threshold })}
        selection={{
          metricName: metric.metricName,
          source: metric.source ?? 'internal',
          timeRange: metric.timeRange,
          aggregationMode: metric.aggregationMode,
          labelSelectors: metric.labelSelectors,
        }}
      />
    </Stack>
  );
}

function ProgressionEditor({
  minutes,
  onSave,
  onRemove,
  disabled,
  label,
}: {
  minutes: number | null;
  onSave: (minutes: number) => void;
  onRemove: () => void;
  disabled: boolean;
  label: string;
}) {
  const [value, setValue] = useState<number | string>(minutes ?? '');
  return (
    <Group gap="xs" align="flex-end">
      <NumberInput
        size="xs"
        label="Next starts after (minutes)"
        aria-label={label}
        min={1}
        allowDecimal={false}
        value={value}
        onChange={setValue}
        w={190}
        disabled={disabled}
      />
      <Button
        size="xs"
        variant="light"
        disabled={disabled || typeof value !== 'number' || value < 1}
        onClick={() => typeof value === 'number' && onSave(value)}
      >
        Save
      </Button>
      {minutes !== null ? (
        <Button
          size="xs"
          variant="subtle"
          disabled={disabled}
          onClick={onRemove}
          title="The next milestone then starts only when someone starts it"
        >
          No automatic start
        </Button>
      ) : null}
    </Group>
  );
}

/**
 * A flag environment's release: its plan as a timeline (done, active, next with its start time, paused and why),
 * starting and resuming, each milestone's progression, and the safeguard watching it; or, with no plan, a button to
 * apply a template and the flag environment's own safeguard.
 */
export function ReleasePlanPanel({
  project,
  flag,
  state,
}: {
  project: string;
  flag: string;
  state: FeatureEnvironment;
}) {
  const environment = state.name;
  const can = usePermission();
  const write = can(Permission.UPDATE_FEATURE_STRATEGY, { project, environment });
  const changes = useReleasePlanChanges(project, flag, environment);
  const [applying, setApplying] = useState(false);
  const [safeguardFor, setSafeguardFor] = useState<'plan' | 'flag' | null>(null);
  const plan = state.releasePlans?.[0];
  const flagSafeguard = state.safeguards?.[0];

  if (!plan) {
    return (
      <Stack gap="xs">
        <Group gap="xs">
          <Guarded reason={can(Permission.CREATE_FEATURE_STRATEGY, { project, environment }).reason}>
            <Button
              size="xs"
              variant="light"
              onClick={() => setApplying(true)}
              disabled={!can(Permission.CREATE_FEATURE_STRATEGY, { project, environment }).allowed}
              aria-label={`Apply release template in ${environment}`}
            >
              Apply release template
            </Button>
          </Guarded>
          {flagSafeguard ? null : (
            <Button
              size="xs"
              variant="subtle"
              disabled={!write.allowed}
              onClick={() => setSafeguardFor('flag')}
              aria-label={`Add safeguard in ${environment}`}
            >
              Add safeguard
            </Button>
          )}
        </Group>
        {flagSafeguard ? (
          <SafeguardSummary
            safeguard={flagSafeguard}
            disabled={!write.allowed}
            onEdit={() => setSafeguardFor('flag')}
            onRemove={() => changes.removeFlagSafeguard.mutate(flagSafeguard.id)}
          />
        ) : null}
        {applying ? (
          <ApplyTemplateModal
            project={project}
            pending={changes.apply.isPending}
            onClose={() => setApplying(false)}
            onApply={(templateId) => changes.apply.mutate(templateId, { onSuccess: () => setApplying(false) })}
          />
        ) : null}
        {safeguardFor === 'flag' ? (
          <SafeguardModal
            title={`Safeguard for ${flag} in ${environment}`}
            effect="the flag is turned off in this environment."
            existing={flagSafeguard ?? null}
            pending={changes.setFlagSafeguard.isPending}
            error={changes.setFlagSafeguard.error}
            onSave={(body) =>
              changes.setFlagSafeguard.mutate(
                { ...body, ...(flagSafeguard ? { id: flagSafeguard.id } : {}) },
                { onSuccess: () => setSafeguardFor(null) },
              )
            }
            onClose={() => setSafeguardFor(null)}
          />
        ) : null}
      </Stack>
    );
  }

  const timeline = planTimeline(plan);
  const milestones = [...plan.milestones].sort((a, b) => a.sortOrder - b.sortOrder);
  const planSafeguard = plan.safeguards[0];
  const headingId = `plan-${environment}`;
  return (
    <Paper withBorder p="sm" bg="gray.0" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h5" id={headingId}>
            Release plan: {plan.name}
          </Title>
          <ConfirmButton
            size="compact-sm"
            variant="subtle"
            color="red"
            disabled={!can(Permission.DELETE_FEATURE_STRATEGY, { project, environment }).allowed}
            aria-label={`Remove plan in ${environment}`}
            title="Remove this release plan?"
            message="Its milestone's strategies leave the flag here; the flag's own strategies stay."
            confirmLabel="Remove"
            onConfirm={() => changes.remove.mutate(plan.id)}
          >
            Remove plan
          </ConfirmButton>
        </Group>
        {timeline.waiting ? (
          <Text size="sm" c="dimmed">
            Waiting: the first milestone starts when the flag is switched on in {environment}.
          </Text>
        ) : null}
        {timeline.paused ? (
          <Alert color="orange" title={`Paused at ${time(timeline.paused.at)}`} role="status">
            <Group justify="space-between">
              <Text size="sm">
                {timeline.paused.why ? `Stopped by the ${timeline.paused.why}.` : 'Progressions are paused.'} The active
                milestone keeps serving.
              </Text>
              <Button size="xs" onClick={() => changes.resume.mutate(plan.id)} disabled={!write.allowed}>
                Resume
              </Button>
            </Group>
          </Alert>
        ) : null}
        <Stack
          gap={6}
          component="ol"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
          aria-label={`Milestones in ${environment}`}
        >
          {timeline.entries.map((entry, index) => {
            const milestone = milestones[index]!;
            return (
              <Paper
                key={entry.id}
                component="li"
                withBorder
                p="xs"
                aria-label={`${entry.name}: ${STATUS[entry.status].label}`}
              >
                <Group justify="space-between" align="flex-start">
                  <Stack gap={2}>
                    <Group gap="xs">
                      <Badge color={STATUS[entry.status].color} variant="light">
                        {STATUS[entry.status].label}
                      </Badge>
                      <Text fw={600} size="sm">
                        {entry.name}
                      </Text>
                    </Group>
                    <Text size="xs" c="dimmed">
                      {milestone.strategies.map((strategy) => strategySummary(strategy)).join('; ') ||
                        'on for everyone'}
                    </Text>
                    {entry.startedAt ? <Text size="xs">Started {time(entry.startedAt)}</Text> : null}
                    {entry.startsAt ? (
                      <Text size="xs" c="blue">
                        Starts on its own at {time(entry.startsAt)}
                      </Text>
                    ) : null}
                  </Stack>
                  <Stack gap={4} align="flex-end">
                    {entry.status === 'active' ? null : (
                      <Button
                        size="compact-sm"
                        variant="light"
                        disabled={!write.allowed}
                        onClick={() => changes.start.mutate({ planId: plan.id, milestoneId: entry.id })}
                        aria-label={`${entry.status === 'done' ? 'Start again' : 'Start'} ${entry.name}`}
                      >
                        {entry.status === 'done' ? 'Start again' : 'Start'}
                      </Button>
                    )}
                    {/* A done milestone's progression has run: changing it would change nothing. */}
                    {index < milestones.length - 1 && entry.status !== 'done' ? (
                      <ProgressionEditor
                        minutes={milestone.transitionCondition?.intervalMinutes ?? null}
                        disabled={!write.allowed}
                        label={`Minutes from ${entry.name} to the next milestone`}
                        onSave={(minutes) =>
                          changes.setProgression.mutate({
                            source: entry.id,
                            target: milestones[index + 1]!.id,
                            minutes,
                          })
                        }
                        onRemove={() => changes.removeProgression.mutate(entry.id)}
                      />
                    ) : null}
                  </Stack>
                </Group>
              </Paper>
            );
          })}
        </Stack>
        {planSafeguard ? (
          <SafeguardSummary
            safeguard={planSafeguard}
            disabled={!write.allowed}
            onEdit={() => setSafeguardFor('plan')}
            onRemove={() => changes.removePlanSafeguard.mutate({ planId: plan.id, id: planSafeguard.id })}
          />
        ) : (
          <Group>
            <Button
              size="xs"
              variant="subtle"
              disabled={!write.allowed}
              onClick={() => setSafeguardFor('plan')}
              aria-label={`Add safeguard to the release plan in ${environment}`}
            >
              Add safeguard
            </Button>
          </Group>
        )}
        {safeguardFor === 'plan' ? (
          <SafeguardModal
            title={`Safeguard for the release plan in ${environment}`}
            effect="the plan stops moving on; the active milestone keeps serving until someone resumes it."
            existing={planSafeguard ?? null}
            pending={changes.setPlanSafeguard.isPending}
            error={changes.setPlanSafeguard.error}
            onSave={(body) =>
              changes.setPlanSafeguard.mutate(
                { planId: plan.id, body: { ...body, ...(planSafeguard ? { id: planSafeguard.id } : {}) } },
                { onSuccess: () => setSafeguardFor(null) },
              )
            }
            onClose={() => setSafeguardFor(null)}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}
