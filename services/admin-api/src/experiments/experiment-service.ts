import { randomUUID } from 'node:crypto';
import type { CreateExperiment, Experiment, ExperimentResults, StopExperiment } from '@bunting/contracts';
import { ConflictError, NotFoundError, ValidationError, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { environmentState } from '../feature-state/environment-state.ts';
import type { FeatureRow } from '../feature-state/feature-lookup.ts';
import { lifecycleService } from '../feature-state/lifecycle.ts';
import { requireProjectEnvironment } from '../projects/project-read-model.ts';
import { strategyReadModel } from '../strategies/strategy-read-model.ts';
import { experimentResults, type TrackedAnswer, type VariantsAnswer } from './experiment-results.ts';
import { experimentStore } from './experiment-store.ts';

/** Insights' hourly figures of one metric for the flag's variants. */
export type ReadVariants = (query: {
  metricName: string;
  featureName: string;
  environment: string;
  since: string;
}) => Promise<VariantsAnswer>;

/** Insights' per-user figures of one tracked metric for the flag's answers, per day. */
export type ReadTracked = (query: {
  metricName: string;
  featureName: string;
  environment: string;
  since: string;
  denominator: string | null;
  aggregation: 'sum' | 'converted';
  preDays: number;
}) => Promise<TrackedAnswer>;

/**
 * The variants' weights where SDKs serve them: an enabled strategy's own variants win (as in evaluation), else the
 * flag environment's. Null when the flag has none there.
 */
async function weightsOf(db: Queryable, featureName: string, environment: string) {
  const strategies = (await strategyReadModel.listForFeatures(db, [featureName])).filter(
    (strategy) => strategy.environment === environment && !strategy.disabled && strategy.variants.length > 0,
  );
  const variants: { name?: unknown; weight?: unknown }[] =
    strategies[0]?.variants ?? (await environmentState.get(db, featureName, environment))?.variants ?? [];
  const named = variants.filter((variant) => typeof variant.name === 'string');
  if (named.length === 0) return null;
  return Object.fromEntries(named.map((variant) => [variant.name as string, Number(variant.weight ?? 0)]));
}

async function requireExperiment(db: Queryable, feature: FeatureRow, id: string, forUpdate = false) {
  const experiment = await experimentStore.get(db, feature.name, id, { forUpdate });
  if (!experiment) throw new NotFoundError(`Could not find experiment ${id} of ${feature.name}`);
  return experiment;
}

/**
 * Experiments on a flag's variants. The spec's closed event list has no experiment events, so starting and stopping
 * one is recorded as feature-metadata-updated (with Unleash-style names in data); stopping also completes the flag's
 * lifecycle with the decision (kept or discarded, and the variant kept).
 */
export const experimentService = {
  list: (db: Queryable, feature: FeatureRow) => experimentStore.ofFeature(db, feature.name),

  get: (db: Queryable, feature: FeatureRow, id: string) => requireExperiment(db, feature, id),

  async start(change: Change, feature: FeatureRow, input: CreateExperiment): Promise<Experiment> {
    await requireProjectEnvironment(change.tx, feature.project, input.environment);
    const weights = await weightsOf(change.tx, feature.name, input.environment);
    if (!weights) {
      throw ValidationError.field(
        'environment',
        `${feature.name} has no variants in ${input.environment}: an experiment compares a flag's variants`,
      );
    }
    if (!Object.hasOwn(weights, input.controlVariant)) {
      throw ValidationError.field(
        'controlVariant',
        `${input.controlVariant} is not one of the variants (${Object.keys(weights).join(', ')})`,
      );
    }
    if (await experimentStore.runningIn(change.tx, feature.name, input.environment)) {
      throw new ConflictError(`An experiment is already running on ${feature.name} in ${input.environment}`);
    }
    const id = randomUUID();
    await experimentStore.insert(change.tx, {
      id,
      featureName: feature.name,
      environment: input.environment,
      name: input.name,
      hypothesis: input.hypothesis?.trim() || null,
      controlVariant: input.controlVariant,
      metrics: input.metrics,
      method: input.method,
      alpha: input.alpha,
      correction: input.correction,
      minimumSample: input.minimumSample,
    });
    const experiment = (await experimentStore.get(change.tx, feature.name, id))!;
    change.emit({
      type: 'feature-metadata-updated',
      project: feature.project,
      featureName: feature.name,
      environment: input.environment,
      data: { unleashEventType: 'experiment-started', experiment },
    });
    return experiment;
  },

  async results(
    db: Queryable,
    feature: FeatureRow,
    id: string,
    read: { variants: ReadVariants; tracked: ReadTracked },
  ): Promise<ExperimentResults> {
    const experiment = await requireExperiment(db, feature, id);
    const scope = { featureName: feature.name, environment: experiment.environment, since: experiment.startedAt };
    const answers = await Promise.all(
      experiment.metrics.map((metric) =>
        metric.source === 'tracked'
          ? read.tracked({
              ...scope,
              metricName: metric.metricName,
              denominator: metric.denominator,
              aggregation: metric.aggregation,
              preDays: metric.preDays,
            })
          : read.variants({ ...scope, metricName: metric.metricName }),
      ),
    );
    // The SDK exposures come with any impact metric's figures; an experiment of tracked metrics asks for them alone.
    const exposures = experiment.metrics.some((metric) => metric.source === 'impact')
      ? undefined
      : await read.variants({ ...scope, metricName: experiment.metrics[0]!.metricName });
    const weights = await weightsOf(db, feature.name, experiment.environment);
    // As of the oldest figures: a large experiment's tracked sums may come from a reading a little while ago.
    const asOf = answers
      .flatMap((answer) => ('computedAt' in answer ? [answer.computedAt] : []))
      .reduce((oldest, at) => (at < oldest ? at : oldest), new Date().toISOString());
    return experimentResults(experiment, answers, weights, asOf, exposures);
  },

  async stop(change: Change, feature: FeatureRow, id: string, input: StopExperiment): Promise<Experiment> {
    const experiment = await requireExperiment(change.tx, feature, id, true);
    if (experiment.status === 'stopped') throw new ConflictError(`Experiment ${id} was already stopped`);
    if (input.outcome === 'kept' && input.keptVariant === null) {
      throw ValidationError.field('keptVariant', 'name the variant kept, or stop with the outcome discarded');
    }
    const weights = (await weightsOf(change.tx, feature.name, experiment.environment)) ?? {};
    if (input.keptVariant !== null && !Object.hasOwn(weights, input.keptVariant)) {
      throw ValidationError.field('keptVariant', `${input.keptVariant} is not one of the flag's variants`);
    }
    const decision = { outcome: input.outcome, keptVariant: input.keptVariant, reason: input.reason?.trim() || null };
    await experimentStore.stop(change.tx, id, decision);
    const stopped = (await experimentStore.get(change.tx, feature.name, id))!;
    change.emit({
      type: 'feature-metadata-updated',
      project: feature.project,
      featureName: feature.name,
      environment: experiment.environment,
      data: { unleashEventType: 'experiment-stopped', experiment: stopped },
      preData: { experiment },
    });
    await lifecycleService.complete(change, feature, {
      status: input.outcome,
      ...(input.keptVariant ? { statusValue: input.keptVariant } : {}),
    });
    return stopped;
  },
};
