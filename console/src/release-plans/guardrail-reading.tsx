import { Badge, Stack, Table, Text } from '@mantine/core';
import type { ComparisonReading } from '@bunting/contracts';

type Decision = ComparisonReading['decision'];

/** Each decision as a badge a release manager reads at a glance. */
const BADGES: Record<Decision, { label: string; color: string }> = {
  harm: { label: 'harm found', color: 'red' },
  'sample-ratio-mismatch': { label: 'split broken', color: 'red' },
  safe: { label: 'safe to advance', color: 'green' },
  'no-harm-yet': { label: 'no harm so far', color: 'blue' },
  waiting: { label: 'waiting for data', color: 'gray' },
  unsupported: { label: 'cannot compare', color: 'orange' },
};

const grouped = (value: number) => Math.round(value).toLocaleString('en-US');
const average = (value: number) => Number(value.toPrecision(3)).toString();
const signed = (value: number, relative: boolean) => {
  const shown = relative ? `${Number((value * 100).toPrecision(3))} %` : average(value);
  return value > 0 ? `+${shown}` : shown;
};

export function DecisionBadge({ decision }: { decision: Decision | null }) {
  const badge = decision ? BADGES[decision] : { label: 'first look pending', color: 'gray' };
  return (
    <Badge ml="xs" color={badge.color} variant="light">
      {badge.label}
    </Badge>
  );
}

/**
 * A guardrail's last look in words and figures: both sides' evaluations and averages, the difference with the bound
 * the evidence allows, and what the p-value means, so someone who is not a statistician can tell why it acted.
 */
export function GuardrailReading({ metric, reading }: { metric: string; reading: ComparisonReading | null }) {
  if (!reading) {
    return (
      <Text size="xs" c="dimmed">
        The guardrail has not looked yet: it looks every few seconds once the flag is on.
      </Text>
    );
  }
  const relative = reading.differenceType === 'relative';
  const bound = reading.interval ? (reading.interval.lower ?? reading.interval.upper) : null;
  return (
    <Stack gap={4}>
      <Text size="sm" role="status" aria-label="What the guardrail concluded">
        {reading.summary}
      </Text>
      {reading.control.units + reading.treatment.units > 0 ? (
        <Table aria-label={`${metric}: with and without the change`} withTableBorder fz="xs" maw={560}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Users</Table.Th>
              <Table.Th>Counted</Table.Th>
              <Table.Th>Average {metric}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <Table.Tr>
              <Table.Td>with the change</Table.Td>
              <Table.Td>{grouped(reading.treatment.units)}</Table.Td>
              <Table.Td>{average(reading.treatment.mean)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td>without it</Table.Td>
              <Table.Td>{grouped(reading.control.units)}</Table.Td>
              <Table.Td>{average(reading.control.mean)}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
          <Table.Caption>
            A count is averaged per evaluation of the flag (0.2 is one in five); a measurement, over what was measured.
          </Table.Caption>
        </Table>
      ) : null}
      {reading.effect !== null ? (
        <Text size="xs" c="dimmed">
          Difference {signed(reading.effect, relative)}
          {bound !== null
            ? `, ${reading.interval?.lower === null ? 'at most' : 'at least'} ${signed(bound, relative)} with the confidence chosen`
            : ''}
          . p-value {reading.pValue?.toPrecision(2)}: how surprising a difference this large would be if the change made
          none; below the false-alarm chance you set, it counts as evidence.
        </Text>
      ) : null}
      {reading.sampleRatioPValue !== null && reading.treatmentShare !== null ? (
        <Text size="xs" c="dimmed">
          Split: {Math.round(reading.treatmentShare * 100)} % configured to get the change;{' '}
          {grouped(reading.treatment.exposures)} of {grouped(reading.treatment.exposures + reading.control.exposures)}{' '}
          evaluations did (check p-value {reading.sampleRatioPValue.toPrecision(2)}; below 0.001 the split is broken).
        </Text>
      ) : null}
    </Stack>
  );
}
