import { impactDisplayName } from '@bunting/contracts';
import { Alert, Badge, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Chart, type ChartData } from '../ui/chart.tsx';
import { Failed, Loading } from '../ui/states.tsx';
import { useExperimentResults, type Experiment, type ExperimentResults } from './experiment-queries.ts';

type MetricResult = ExperimentResults['metrics'][number];
type Comparison = MetricResult['comparisons'][number];

const percent = (value: number) => `${Number((value * 100).toPrecision(3))} %`;
const signed = (value: number, type: Comparison['differenceType']) => {
  const shown = type === 'relative' ? percent(value) : Number(value.toPrecision(3)).toString();
  return value > 0 ? `+${shown}` : shown;
};
/** A chance as people say it: never a flat 0 % or 100 %, which the data cannot promise. */
const chance = (value: number) => (value > 0.999 ? 'over 99.9 %' : value < 0.001 ? 'under 0.1 %' : percent(value));
const plain = (value: number) => Number(value.toPrecision(3)).toString();
const VERDICT_COLOURS: Record<Comparison['verdict'], string> = { better: 'green', worse: 'red', inconclusive: 'gray' };

/** The effect of each variant over time: its lift and the range the evidence allows, hour by hour. */
function overTimeChart(metric: MetricResult): ChartData {
  const hours = [...new Set(metric.overTime.map((point) => point.at))];
  const variants = [...new Set(metric.overTime.map((point) => point.variant))];
  const at = (variant: string, hour: string) => metric.overTime.find((p) => p.variant === variant && p.at === hour);
  const line = (variant: string, pick: 'effect' | 'lower' | 'upper') =>
    hours.map((hour) => {
      const value = at(variant, hour)?.[pick];
      return value === null || value === undefined ? Number.NaN : Number((value * 100).toPrecision(4));
    });
  return {
    kind: 'line',
    unit: '% vs control',
    yAxisMin: 'auto',
    // Tracked metrics are read at the end of each day, impact metrics each hour.
    categories: hours.map((hour) =>
      metric.source === 'tracked' ? hour.slice(0, 10) : hour.slice(5, 16).replace('T', ' '),
    ),
    series: variants.flatMap((variant) => [
      { name: `${variant}: difference`, values: line(variant, 'effect') },
      { name: `${variant}: lowest likely`, values: line(variant, 'lower') },
      { name: `${variant}: highest likely`, values: line(variant, 'upper') },
    ]),
  };
}

/** What the adjustment for the period before did, in words; nothing for a metric counted per evaluation. */
function adjustmentNote(metric: MetricResult): string | null {
  const adjustment = metric.adjustment;
  if (!adjustment) return null;
  const users = metric.arms.reduce((sum, arm) => sum + arm.units, 0);
  const parts: string[] = [];
  if (metric.preDays === 0 || adjustment.unitsWithHistory === 0) {
    parts.push(
      metric.preDays === 0
        ? 'Not adjusted for what users did before (turned off).'
        : `Not adjusted yet: none of these users did this in the ${metric.preDays} days before the experiment.`,
    );
  } else {
    // The interval's width goes with the standard error: the square root of the variance kept.
    const narrower = 1 - Math.sqrt(Math.max(0, 1 - adjustment.varianceReduction));
    parts.push(
      `Adjusted for what the same users did in the ${metric.preDays} days before (${adjustment.unitsWithHistory.toLocaleString('en-US')} of ${users.toLocaleString('en-US')} users had done it then): the likely range is ${percent(narrower)} narrower than without it, and a chance difference between the groups' habits is taken out.`,
    );
  }
  if (adjustment.excludedUnits > 0) {
    parts.push(
      `${adjustment.excludedUnits.toLocaleString('en-US')} users were shown more than one variant and are left out.`,
    );
  }
  return parts.join(' ');
}

function MetricResultView({ metric, control }: { metric: MetricResult; control: string }) {
  const name = impactDisplayName(metric.metricName);
  const byVariant = new Map(metric.comparisons.map((comparison) => [comparison.variant, comparison]));
  const perUser = metric.source === 'tracked';
  const adjusted = metric.arms.some((arm) => arm.adjustedMean !== null);
  const measure = perUser
    ? metric.denominator
      ? `${name} per ${impactDisplayName(metric.denominator)}`
      : metric.aggregation === 'converted'
        ? `Share of users with ${name}`
        : `Average ${name} per user`
    : `Average ${name}`;
  const note = adjustmentNote(metric);
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={3} size="h5">
          {name}{' '}
          <Badge variant="light" color="gray">
            {metric.role}
          </Badge>{' '}
          <Text span size="xs" c="dimmed">
            {metric.better === 'increase' ? 'higher is better' : 'lower is better'}
          </Text>
        </Title>
        {metric.note ? (
          <Text size="sm" c="dimmed">
            {metric.note}
          </Text>
        ) : (
          <Table aria-label={`Results on ${name}`} withTableBorder fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Variant</Table.Th>
                <Table.Th>{perUser ? 'Users' : 'Exposures'}</Table.Th>
                <Table.Th>{measure}</Table.Th>
                {adjusted ? <Table.Th>Adjusted for before</Table.Th> : null}
                <Table.Th>Difference from {control}</Table.Th>
                <Table.Th>Chance to beat {control}</Table.Th>
                <Table.Th>Verdict</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {metric.arms.map((arm) => {
                const comparison = byVariant.get(arm.variant);
                return (
                  <Table.Tr key={arm.variant}>
                    <Table.Td>
                      {arm.variant}
                      {arm.variant === control ? ' (control)' : ''}
                    </Table.Td>
                    <Table.Td>{Math.round(perUser ? arm.units : arm.exposures).toLocaleString('en-US')}</Table.Td>
                    <Table.Td>{plain(arm.mean)}</Table.Td>
                    {adjusted ? <Table.Td>{arm.adjustedMean === null ? '–' : plain(arm.adjustedMean)}</Table.Td> : null}
                    <Table.Td>
                      {comparison
                        ? `${signed(comparison.effect, comparison.differenceType)} (likely between ${
                            comparison.interval.lower === null
                              ? '…'
                              : signed(comparison.interval.lower, comparison.differenceType)
                          } and ${comparison.interval.upper === null ? '…' : signed(comparison.interval.upper, comparison.differenceType)})`
                        : '–'}
                    </Table.Td>
                    <Table.Td>{comparison ? chance(comparison.chanceToWin) : '–'}</Table.Td>
                    <Table.Td style={{ minWidth: 110 }}>
                      {comparison ? (
                        <Badge variant="light" color={VERDICT_COLOURS[comparison.verdict]}>
                          {comparison.verdict}
                        </Badge>
                      ) : (
                        '–'
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
        {note ? (
          <Text size="sm" c="dimmed">
            {note}
          </Text>
        ) : null}
        {metric.comparisons.map((comparison) => (
          <Text key={comparison.variant} size="sm">
            {comparison.summary}
          </Text>
        ))}
        {metric.overTime.length > 0 ? (
          <Chart title={`${name}: difference from ${control} over time`} data={overTimeChart(metric)} />
        ) : null}
      </Stack>
    </Paper>
  );
}

/**
 * An experiment's results for someone who is not a statistician: the conclusion first, in a sentence; then per
 * metric each variant's average, its difference from the control with the range the evidence allows, the chance it
 * is better, and a verdict; how the difference settled over time; and what the words mean.
 */
export function ExperimentResultsView({ experiment, projectId }: { experiment: Experiment; projectId: string }) {
  const results = useExperimentResults(
    projectId,
    experiment.featureName,
    experiment.id,
    experiment.status === 'running',
  );
  if (results.isPending) return <Loading label="Loading results" />;
  if (results.isError) return <Failed error={results.error} />;
  const data = results.data;
  return (
    <Stack gap="sm">
      <Alert color={data.sampleRatio?.mismatch ? 'red' : 'blue'} title="What the results say now" role="status">
        {data.summary}
      </Alert>
      {Date.now() - Date.parse(data.asOf) > 60_000 ? (
        <Text size="xs" c="dimmed">
          Figures as of {new Date(data.asOf).toLocaleTimeString()}: a large experiment&apos;s per-user figures are read
          again in the background.
        </Text>
      ) : null}
      {data.sampleRatio ? (
        <Text size="xs" c="dimmed">
          Split check:{' '}
          {Object.entries(data.sampleRatio.exposures)
            .map(([variant, count]) => `${variant} ${Math.round(count).toLocaleString('en-US')}`)
            .join(', ')}{' '}
          {experiment.metrics.find((metric) => metric.role === 'primary')?.source === 'tracked' ? 'users' : 'exposures'}{' '}
          against the weights set (
          {Object.entries(data.sampleRatio.expectedShares)
            .map(([variant, share]) => `${variant} ${percent(share)}`)
            .join(', ')}
          ); {data.sampleRatio.mismatch ? 'they do not match: something drops or skews exposures.' : 'they match.'}
        </Text>
      ) : null}
      {data.metrics.map((metric) => (
        <MetricResultView key={metric.metricName} metric={metric} control={experiment.controlVariant} />
      ))}
      <Text size="xs" c="dimmed">
        How to read this: the difference is the variant&apos;s average against the control&apos;s, with the range the
        data allows so far ({percent(1 - experiment.alpha)} confidence
        {experiment.method === 'sequential' ? ', valid however often you look' : ', read once at the planned sample'}).
        A verdict of better or worse means the range leaves out no difference, after allowing for comparing several
        variants and metrics at once ({experiment.correction === 'holm' ? 'Holm' : 'Benjamini-Hochberg'}); inconclusive
        means it could still be chance. The chance to beat the control is the Bayesian reading of the same data.
      </Text>
    </Stack>
  );
}
