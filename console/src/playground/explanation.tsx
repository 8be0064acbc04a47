import { Badge, Group, List, Stack, Text } from '@mantine/core';
import type { AdvancedPlaygroundEvaluation, ExplainedConstraint } from '@bunting/contracts';
import { describeConstraint } from '../constraints/constraint-values.ts';
import { strategySummary } from '../strategy-definitions/strategy-summary.ts';
import { ADDED_COLOR, REMOVED_COLOR } from '../theme.ts';

const mark = (result: boolean | 'unknown') => (result === 'unknown' ? '?' : result ? '✓' : '✗');

function ConstraintLine({ constraint }: { constraint: ExplainedConstraint }) {
  return (
    <Text size="sm" ff="monospace" c={constraint.result ? ADDED_COLOR : REMOVED_COLOR}>
      {mark(constraint.result)} {describeConstraint(constraint)}
    </Text>
  );
}

/** Why a flag answers as it does for one context, strategy by strategy, constraint by constraint. */
export function Explanation({ evaluation }: { evaluation: AdvancedPlaygroundEvaluation }) {
  if (!evaluation.isEnabledInCurrentEnvironment)
    return <Text size="sm">Off: the flag is disabled in {evaluation.environment}.</Text>;
  if (evaluation.hasUnsatisfiedDependency)
    return <Text size="sm">Off: a parent flag it depends on does not answer as required.</Text>;
  const strategies = evaluation.strategies.data;
  return (
    <Stack gap="xs">
      <Text size="sm">
        {evaluation.isEnabled ? 'On' : 'Off'}
        {strategies.length === 0
          ? ': enabled with no strategies, so on for everyone.'
          : evaluation.isEnabled
            ? ': a strategy below lets this context in.'
            : ': no strategy lets this context in.'}
        {evaluation.variant.enabled ? ` Variant ${evaluation.variant.name}.` : ''}
      </Text>
      <List spacing="xs" listStyleType="none">
        {strategies.map((strategy) => (
          <List.Item key={strategy.id}>
            <Group gap="xs">
              <Badge
                color={
                  strategy.result.enabled === true ? 'green' : strategy.result.enabled === 'unknown' ? 'yellow' : 'red'
                }
                variant="light"
              >
                {strategy.result.enabled === true
                  ? 'applies'
                  : strategy.result.enabled === 'unknown'
                    ? 'unknown'
                    : 'does not apply'}
              </Badge>
              <Text size="sm" fw={600}>
                {strategy.title ?? strategy.name}
              </Text>
              <Text size="sm" c="dimmed">
                {strategySummary(strategy)}
              </Text>
            </Group>
            {strategy.result.evaluationStatus === 'incomplete' ? (
              <Text size="xs" c="dimmed">
                A custom strategy: only the SDK that implements it can decide.
              </Text>
            ) : null}
            {strategy.constraints.map((constraint, index) => (
              <ConstraintLine key={index} constraint={constraint} />
            ))}
            {strategy.segments.map((segment) => (
              <Stack key={segment.id} gap={0} ml="md">
                <Text size="sm">
                  {mark(segment.result)} segment {segment.name}
                </Text>
                {segment.constraints.map((constraint, index) => (
                  <ConstraintLine key={index} constraint={constraint} />
                ))}
              </Stack>
            ))}
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
