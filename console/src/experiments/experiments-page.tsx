import {
  Badge,
  Button,
  Group,
  NativeSelect,
  NumberInput,
  Paper,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useParams } from 'react-router';
import { useFlag } from '../feature-state/flag-queries.ts';
import { useImpactMetadata } from '../impact-metrics/impact-queries.ts';
import { FormModal } from '../ui/form-modal.tsx';
import { Failed, Loading } from '../ui/states.tsx';
import { FlagBreadcrumbs } from '../ui/flag-breadcrumbs.tsx';
import {
  useExperiments,
  useStartExperiment,
  useStopExperiment,
  type Experiment,
  type StartExperimentBody,
} from './experiment-queries.ts';
import { ExperimentResultsView } from './experiment-results-view.tsx';

type Better = 'increase' | 'decrease';
type Source = 'impact' | 'tracked';
type Aggregation = 'sum' | 'converted';

function StartExperimentModal({
  projectId,
  featureName,
  onClose,
}: {
  projectId: string;
  featureName: string;
  onClose: () => void;
}) {
  const flag = useFlag(projectId, featureName);
  const metadata = useImpactMetadata();
  const start = useStartExperiment(projectId, featureName);
  const withVariants = (flag.data?.environments ?? []).filter((environment) => (environment.variants ?? []).length > 0);
  const [name, setName] = useState('');
  const [hypothesis, setHypothesis] = useState('');
  const [environment, setEnvironment] = useState(withVariants[0]?.name ?? '');
  const variants = (withVariants.find((one) => one.name === environment)?.variants ?? []).map(
    (variant) => variant.name,
  );
  const [control, setControl] = useState('');
  const [primary, setPrimary] = useState('');
  const [better, setBetter] = useState<Better>('increase');
  const [guardrail, setGuardrail] = useState('');
  const [source, setSource] = useState<Source>('impact');
  const [tracked, setTracked] = useState('');
  const [aggregation, setAggregation] = useState<Aggregation>('sum');
  const [denominator, setDenominator] = useState('');
  const [preDays, setPreDays] = useState<number>(7);
  const metrics = (metadata.data?.metrics ?? []).filter((metric) => metric.type !== 'gauge');
  const chosenControl = control || variants[0] || '';
  const primaryName = source === 'tracked' ? tracked.trim() : primary;
  const ready = name.trim() !== '' && environment !== '' && chosenControl !== '' && primaryName !== '';
  const primaryMetric =
    source === 'tracked'
      ? {
          metricName: primaryName,
          role: 'primary' as const,
          better,
          source,
          aggregation,
          ...(denominator.trim() && aggregation === 'sum' ? { denominator: denominator.trim() } : {}),
          preDays,
        }
      : { metricName: primary, role: 'primary' as const, better };
  const body = (): StartExperimentBody => ({
    name: name.trim(),
    environment,
    controlVariant: chosenControl,
    ...(hypothesis.trim() ? { hypothesis: hypothesis.trim() } : {}),
    metrics: [
      primaryMetric,
      ...(guardrail && guardrail !== primaryName
        ? [{ metricName: guardrail, role: 'guardrail' as const, better: 'decrease' as const }]
        : []),
    ],
  });
  return (
    <FormModal
      title={`Start an experiment on ${featureName}`}
      size="lg"
      onClose={onClose}
      onSubmit={() => ready && start.mutate(body(), { onSuccess: onClose })}
      submitLabel="Start experiment"
      pending={start.isPending}
      disabled={!ready}
      error={start.error}
    >
      <Text size="sm" c="dimmed">
        An experiment compares the flag&apos;s variants: the variants&apos; weights are the split, and every outcome is
        counted against the variant the user was given.
      </Text>
      {withVariants.length === 0 ? (
        <Text size="sm" c="orange">
          This flag has no variants in any environment yet: add variants first.
        </Text>
      ) : null}
      <TextInput label="Name" value={name} onChange={(event) => setName(event.currentTarget.value)} required />
      <Textarea
        label="Hypothesis"
        description="What you expect, and why"
        value={hypothesis}
        onChange={(event) => setHypothesis(event.currentTarget.value)}
      />
      <Group grow>
        <NativeSelect
          label="Environment"
          value={environment}
          onChange={(event) => setEnvironment(event.currentTarget.value)}
          data={withVariants.map((one) => one.name)}
        />
        <NativeSelect
          label="Control variant"
          description="The one the others are compared with"
          value={chosenControl}
          onChange={(event) => setControl(event.currentTarget.value)}
          data={variants}
        />
      </Group>
      <NativeSelect
        label="Count"
        description={
          source === 'tracked'
            ? "Outcomes your application tracks with OpenFeature's track(); each user counted once."
            : 'Impact metrics your SDKs count with the flag in their flag context; each evaluation counted.'
        }
        value={source}
        onChange={(event) => setSource(event.currentTarget.value as Source)}
        data={[
          { value: 'impact', label: 'Evaluations (impact metrics)' },
          { value: 'tracked', label: 'Users (tracked with OpenFeature)' },
        ]}
      />
      {source === 'tracked' ? (
        <>
          <Group grow align="flex-start">
            <TextInput
              label="Tracked event"
              description="The name your application passes to track(), e.g. purchase"
              value={tracked}
              onChange={(event) => setTracked(event.currentTarget.value)}
            />
            <NativeSelect
              label="Per user, measure"
              value={aggregation}
              onChange={(event) => setAggregation(event.currentTarget.value as Aggregation)}
              data={[
                { value: 'sum', label: 'Total (e.g. revenue)' },
                { value: 'converted', label: 'Did it at all (conversion)' },
              ]}
            />
          </Group>
          <Group grow align="flex-start">
            <TextInput
              label="Divided by (optional)"
              description="Another tracked event, for a ratio such as revenue per order"
              value={denominator}
              disabled={aggregation !== 'sum'}
              onChange={(event) => setDenominator(event.currentTarget.value)}
            />
            <NumberInput
              label="Days before to learn from"
              description="What the same users did before makes the result sharper (CUPED); 0 to leave it out"
              value={preDays}
              min={0}
              max={30}
              onChange={(value) => setPreDays(typeof value === 'number' ? value : 0)}
            />
          </Group>
        </>
      ) : null}
      <Group grow align="flex-start">
        {source === 'impact' ? (
          <NativeSelect
            label="Primary metric"
            value={primary}
            onChange={(event) => setPrimary(event.currentTarget.value)}
            data={[
              { value: '', label: 'Choose a metric' },
              ...metrics.map((metric) => metric.displayName ?? metric.name),
            ]}
          />
        ) : null}
        <NativeSelect
          label="Better when it"
          value={better}
          onChange={(event) => setBetter(event.currentTarget.value as Better)}
          data={[
            { value: 'increase', label: 'goes up (conversions)' },
            { value: 'decrease', label: 'goes down (errors, latency)' },
          ]}
        />
      </Group>
      <NativeSelect
        label="Guardrail metric (optional)"
        description="Must not get worse; lower is better"
        value={guardrail}
        onChange={(event) => setGuardrail(event.currentTarget.value)}
        data={[{ value: '', label: 'None' }, ...metrics.map((metric) => metric.displayName ?? metric.name)]}
      />
    </FormModal>
  );
}

function StopExperimentModal({
  projectId,
  experiment,
  onClose,
}: {
  projectId: string;
  experiment: Experiment;
  onClose: () => void;
}) {
  const stop = useStopExperiment(projectId, experiment.featureName);
  const flag = useFlag(projectId, experiment.featureName);
  const variants = (flag.data?.environments.find((one) => one.name === experiment.environment)?.variants ?? []).map(
    (variant) => variant.name,
  );
  const [choice, setChoice] = useState('');
  const [reason, setReason] = useState('');
  const submit = () =>
    stop.mutate(
      {
        experimentId: experiment.id,
        body: {
          outcome: choice === '' ? 'discarded' : 'kept',
          keptVariant: choice === '' ? null : choice,
          ...(reason.trim() ? { reason: reason.trim() } : {}),
        },
      },
      { onSuccess: onClose },
    );
  return (
    <FormModal
      title={`Stop ${experiment.name}`}
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Stop experiment"
      pending={stop.isPending}
      error={stop.error}
    >
      <Text size="sm" c="dimmed">
        Stopping records the decision and marks the flag&apos;s work complete. It does not change what SDKs serve.
      </Text>
      <NativeSelect
        label="Decision"
        value={choice}
        onChange={(event) => setChoice(event.currentTarget.value)}
        data={[
          { value: '', label: 'Discard: keep none of the variants' },
          ...variants.map((variant) => ({ value: variant, label: `Keep ${variant}` })),
        ]}
      />
      <Textarea label="Why" value={reason} onChange={(event) => setReason(event.currentTarget.value)} />
    </FormModal>
  );
}

/** A flag's experiments on its variants: start one, read each one's results, stop one with a decision. */
export default function ExperimentsPage() {
  const { projectId = '', featureName = '' } = useParams();
  const experiments = useExperiments(projectId, featureName);
  const [starting, setStarting] = useState(false);
  const [stopping, setStopping] = useState<Experiment | null>(null);
  const running = experiments.data?.experiments.some((experiment) => experiment.status === 'running') ?? false;
  return (
    <Stack>
      <FlagBreadcrumbs projectId={projectId} featureName={featureName} />
      <Group justify="space-between">
        <Title order={1}>Experiments on {featureName}</Title>
        <Button onClick={() => setStarting(true)} disabled={running}>
          Start experiment
        </Button>
      </Group>
      {running ? (
        <Text size="sm" c="dimmed">
          One experiment runs on a flag at a time: stop the running one to start another.
        </Text>
      ) : null}
      {experiments.isPending ? (
        <Loading label="Loading experiments" />
      ) : experiments.isError ? (
        <Failed error={experiments.error} />
      ) : experiments.data.experiments.length === 0 ? (
        <Text c="dimmed">No experiments yet. Start one to compare this flag&apos;s variants on your metrics.</Text>
      ) : (
        experiments.data.experiments.map((experiment) => (
          <Paper key={experiment.id} withBorder p="md" component="section" aria-label={experiment.name}>
            <Stack gap="sm">
              <Group justify="space-between">
                <div>
                  <Title order={2} size="h4">
                    {experiment.name}{' '}
                    <Badge variant="light" color={experiment.status === 'running' ? 'blue' : 'gray'}>
                      {experiment.status}
                    </Badge>
                  </Title>
                  <Text size="sm" c="dimmed">
                    In {experiment.environment}, against {experiment.controlVariant}, since{' '}
                    {new Date(experiment.startedAt).toLocaleString()}
                    {experiment.decision
                      ? `; decided: ${experiment.decision.outcome === 'kept' ? `keep ${experiment.decision.keptVariant}` : 'discard'}`
                      : ''}
                  </Text>
                  {experiment.hypothesis ? <Text size="sm">Hypothesis: {experiment.hypothesis}</Text> : null}
                </div>
                {experiment.status === 'running' ? (
                  <Button variant="default" onClick={() => setStopping(experiment)}>
                    Stop experiment
                  </Button>
                ) : null}
              </Group>
              <ExperimentResultsView experiment={experiment} projectId={projectId} />
            </Stack>
          </Paper>
        ))
      )}
      {starting ? (
        <StartExperimentModal projectId={projectId} featureName={featureName} onClose={() => setStarting(false)} />
      ) : null}
      {stopping ? (
        <StopExperimentModal projectId={projectId} experiment={stopping} onClose={() => setStopping(null)} />
      ) : null}
    </Stack>
  );
}
