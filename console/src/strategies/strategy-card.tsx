import { ActionIcon, Badge, Button, Group, Menu, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { Permission, type FeatureStrategy, type Segment, type StrategyDefinition } from '@bunting/contracts';
import { post, put, remove, segment as encode } from '../api/http.ts';
import { usePermission } from '../api/session.ts';
import { useChangeRequestDrafts } from '../change-requests/change-request-queries.ts';
import { describeConstraint } from '../constraints/constraint-values.ts';
import { flagPath, useFlagChange } from '../feature-state/flag-queries.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { Guarded } from '../ui/guarded.tsx';
import { copyBody, strategyBody, draftOf } from './strategy-draft.ts';
import { strategyLabel } from './strategy-editor.tsx';
import { movedOrder, strategySummary } from '../strategy-definitions/strategy-summary.ts';

type Props = {
  project: string;
  flag: string;
  environment: string;
  environments: string[];
  strategy: FeatureStrategy;
  siblings: FeatureStrategy[];
  definitions: StrategyDefinition[];
  segments: Segment[];
  onEdit: () => void;
};

/** One strategy: what it does, its constraints and segments, and what may be done with it. */
export function StrategyCard({ project, flag, environment, environments, strategy, siblings, definitions, segments, onEdit }: Props) {
  const can = usePermission();
  const update = can(Permission.UPDATE_FEATURE_STRATEGY, { project, environment });
  const remover = can(Permission.DELETE_FEATURE_STRATEGY, { project, environment });
  const base = `${flagPath(project, flag)}/environments/${encode(environment)}/strategies`;
  const label = strategyLabel(definitions, strategy.name);
  const name = strategy.title ? `${strategy.title} (${label})` : label;
  const index = siblings.findIndex((sibling) => sibling.id === strategy.id);

  // Where change requests are on, reordering, disabling and deleting go to the user's draft, like any other edit.
  const drafts = useChangeRequestDrafts(project);
  const guarded = drafts.required(environment);
  const propose = (action: string, payload: unknown) => drafts.propose(environment, { feature: flag, action, payload });
  const inDraft = (what: string) => `${what} was added to your change request in ${environment}`;

  const reorder = useFlagChange(project, flag, (by: -1 | 1) => (guarded ? propose('reorderStrategy', movedOrder(siblings, strategy.id, by)) : post(`${base}/set-sort-order`, movedOrder(siblings, strategy.id, by))),
    guarded ? inDraft('The new order') : 'Strategies reordered');
  const toggle = useFlagChange(project, flag, (disabled: boolean) => {
    const body = { ...strategyBody(draftOf(strategy)), disabled };
    return guarded ? propose('updateStrategy', { ...body, id: strategy.id }) : put(`${base}/${encode(strategy.id)}`, body);
  }, (disabled) => (guarded ? inDraft(`${disabled ? 'Disabling' : 'Enabling'} the strategy`) : `Strategy ${disabled ? 'disabled' : 'enabled'} in ${environment}`));
  const drop = useFlagChange(project, flag, () => (guarded ? propose('deleteStrategy', { id: strategy.id }) : remove(`${base}/${encode(strategy.id)}`)),
    guarded ? inDraft('Deleting the strategy') : `Strategy deleted from ${environment}`);
  const copy = useFlagChange(project, flag, (target: string) => post(`${flagPath(project, flag)}/environments/${encode(target)}/strategies`, copyBody(strategy)),
    (target) => `Strategy copied to ${target}`);
  const segmentNames = strategy.segments.map((id) => segments.find((candidate) => candidate.id === id)?.name ?? `#${id}`);

  return (
    <Paper withBorder p="sm" role="group" aria-label={`Strategy ${name}`} opacity={strategy.disabled ? 0.7 : 1}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4}>
          <Group gap="xs">
            <Text fw={600}>{name}</Text>
            {strategy.disabled ? <Badge color="gray" variant="light">disabled</Badge> : null}
            {strategy.variants.length > 0 ? <Badge variant="light">{strategy.variants.length} variants</Badge> : null}
          </Group>
          <Text size="sm">{strategySummary(strategy)}</Text>
          {strategy.constraints.map((constraint, at) => <Text key={at} size="sm" c="dimmed" ff="monospace">{describeConstraint(constraint)}</Text>)}
          {segmentNames.length > 0 ? <Text size="sm" c="dimmed">Segments: {segmentNames.join(', ')}</Text> : null}
        </Stack>
        <Group gap={4} wrap="nowrap">
          <Tooltip label={update.reason ?? 'Move up'}>
            <ActionIcon variant="subtle" aria-label={`Move ${name} up`} disabled={!update.allowed || index <= 0 || reorder.isPending} onClick={() => reorder.mutate(-1)}>↑</ActionIcon>
          </Tooltip>
          <Tooltip label={update.reason ?? 'Move down'}>
            <ActionIcon variant="subtle" aria-label={`Move ${name} down`} disabled={!update.allowed || index >= siblings.length - 1 || reorder.isPending} onClick={() => reorder.mutate(1)}>↓</ActionIcon>
          </Tooltip>
          <Guarded reason={update.reason}>
            <Button size="xs" variant="light" disabled={!update.allowed} onClick={onEdit} aria-label={`Edit ${name}`}>Edit</Button>
          </Guarded>
          <Menu position="bottom-end">
            <Menu.Target>
              <Button size="xs" variant="default" aria-label={`More actions for ${name}`}>More</Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item disabled={!update.allowed} onClick={() => toggle.mutate(!strategy.disabled)}>{strategy.disabled ? 'Enable strategy' : 'Disable strategy'}</Menu.Item>
              <Menu.Label>Copy to</Menu.Label>
              {environments.filter((target) => target !== environment).map((target) => {
                const allowed = can(Permission.CREATE_FEATURE_STRATEGY, { project, environment: target }).allowed;
                return <Menu.Item key={target} disabled={!allowed} onClick={() => copy.mutate(target)}>{target}</Menu.Item>;
              })}
            </Menu.Dropdown>
          </Menu>
          <Guarded reason={remover.reason}>
            <ConfirmButton
              size="xs" variant="subtle" color="red" disabled={!remover.allowed} aria-label={`Delete ${name}`}
              title="Delete strategy" confirmLabel="Delete" onConfirm={() => drop.mutateAsync()}
              message={`Delete ${name} from ${flag} in ${environment}? The history keeps a record of it.`}
            >
              Delete
            </ConfirmButton>
          </Guarded>
        </Group>
      </Group>
    </Paper>
  );
}
