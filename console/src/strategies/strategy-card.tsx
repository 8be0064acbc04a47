import { ActionIcon, Badge, Button, Group, Menu, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { Permission, type FeatureStrategy, type Segment, type StrategyDefinition } from '@bunting/contracts';
import { usePermission } from '../api/session.ts';
import { describeConstraint } from '../constraints/constraint-values.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { Guarded } from '../ui/guarded.tsx';
import { copyBody, strategyBody, draftOf } from './strategy-draft.ts';
import { strategyLabel } from './strategy-editor.tsx';
import { useStrategyChanges } from './strategy-queries.ts';
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
export function StrategyCard({
  project,
  flag,
  environment,
  environments,
  strategy,
  siblings,
  definitions,
  segments,
  onEdit,
}: Props) {
  const can = usePermission();
  const update = can(Permission.UPDATE_FEATURE_STRATEGY, { project, environment });
  const remover = can(Permission.DELETE_FEATURE_STRATEGY, { project, environment });
  const label = strategyLabel(definitions, strategy.name);
  const name = strategy.title ? `${strategy.title} (${label})` : label;
  const index = siblings.findIndex((sibling) => sibling.id === strategy.id);
  const changes = useStrategyChanges(project, flag, environment);
  const reorder = changes.reorder;
  const segmentNames = strategy.segments.map(
    (id) => segments.find((candidate) => candidate.id === id)?.name ?? `#${id}`,
  );

  return (
    <Paper withBorder p="sm" role="group" aria-label={`Strategy ${name}`} opacity={strategy.disabled ? 0.7 : 1}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4}>
          <Group gap="xs">
            <Text fw={600}>{name}</Text>
            {strategy.disabled ? (
              <Badge color="gray" variant="light">
                disabled
              </Badge>
            ) : null}
            {strategy.variants.length > 0 ? <Badge variant="light">{strategy.variants.length} variants</Badge> : null}
          </Group>
          <Text size="sm">{strategySummary(strategy)}</Text>
          {strategy.constraints.map((constraint, at) => (
            <Text key={at} size="sm" c="dimmed" ff="monospace">
              {describeConstraint(constraint)}
            </Text>
          ))}
          {segmentNames.length > 0 ? (
            <Text size="sm" c="dimmed">
              Segments: {segmentNames.join(', ')}
            </Text>
          ) : null}
        </Stack>
        <Group gap={4} wrap="nowrap">
          <Tooltip label={update.reason ?? 'Move up'}>
            <ActionIcon
              variant="subtle"
              aria-label={`Move ${name} up`}
              disabled={!update.allowed || index <= 0 || reorder.isPending}
              onClick={() => reorder.mutate(movedOrder(siblings, strategy.id, -1))}
            >
              ↑
            </ActionIcon>
          </Tooltip>
          <Tooltip label={update.reason ?? 'Move down'}>
            <ActionIcon
              variant="subtle"
              aria-label={`Move ${name} down`}
              disabled={!update.allowed || index >= siblings.length - 1 || reorder.isPending}
              onClick={() => reorder.mutate(movedOrder(siblings, strategy.id, 1))}
            >
              ↓
            </ActionIcon>
          </Tooltip>
          <Guarded reason={update.reason}>
            <Button size="xs" variant="light" disabled={!update.allowed} onClick={onEdit} aria-label={`Edit ${name}`}>
              Edit
            </Button>
          </Guarded>
          <Menu position="bottom-end">
            <Menu.Target>
              <Button size="xs" variant="default" aria-label={`More actions for ${name}`}>
                More
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item
                disabled={!update.allowed}
                onClick={() =>
                  changes.update.mutate({
                    id: strategy.id,
                    body: { ...strategyBody(draftOf(strategy)), disabled: !strategy.disabled },
                  })
                }
              >
                {strategy.disabled ? 'Enable strategy' : 'Disable strategy'}
              </Menu.Item>
              <Menu.Label>Copy to</Menu.Label>
              {environments
                .filter((target) => target !== environment)
                .map((target) => {
                  const allowed = can(Permission.CREATE_FEATURE_STRATEGY, { project, environment: target }).allowed;
                  return (
                    <Menu.Item
                      key={target}
                      disabled={!allowed}
                      onClick={() => changes.copyTo.mutate({ target, body: copyBody(strategy) })}
                    >
                      {target}
                    </Menu.Item>
                  );
                })}
            </Menu.Dropdown>
          </Menu>
          <Guarded reason={remover.reason}>
            <ConfirmButton
              size="xs"
              variant="subtle"
              color="red"
              disabled={!remover.allowed}
              aria-label={`Delete ${name}`}
              title="Delete strategy"
              confirmLabel="Delete"
              onConfirm={() => changes.remove.mutateAsync(strategy.id)}
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
