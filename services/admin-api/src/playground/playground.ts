import type { z } from 'zod';
import type {
  AdvancedPlaygroundEvaluation,
  AdvancedPlaygroundRequest,
  ClientSegment,
  EnvironmentSnapshot,
  EvaluationContext,
  PlaygroundRequest,
} from '@bunting/contracts';
import { explainFeature } from '@bunting/evaluation';
import { ValidationError, type Queryable } from '@bunting/platform';
import { environmentReadModel } from '../environments/environment-read-model.ts';
import { loadEnvironmentSnapshot } from '../configuration-feed/environment-snapshot.ts';

/** A context as given: named fields and custom properties, all strings. */
type ContextInput = { [field: string]: unknown; properties?: Record<string, string> | undefined };

const STANDARD_FIELDS = new Set([
  'appName',
  'userId',
  'sessionId',
  'remoteAddress',
  'currentTime',
  'environment',
  'properties',
]);

function evaluationContext(context: ContextInput, environment: string): EvaluationContext {
  const properties: Record<string, string> = { ...context.properties };
  for (const [key, value] of Object.entries(context)) {
    if (!STANDARD_FIELDS.has(key) && typeof value === 'string') properties[key] = value;
  }
  const { properties: _properties, ...standard } = context;
  return {
    ...Object.fromEntries(Object.entries(standard).filter(([key]) => STANDARD_FIELDS.has(key))),
    environment,
    properties,
  };
}

async function environmentSnapshot(db: Queryable, environment: string, path: string): Promise<EnvironmentSnapshot> {
  if (!(await environmentReadModel.exists(db, environment)))
    throw ValidationError.field(path, `environment ${environment} does not exist`);
  return loadEnvironmentSnapshot(db, environment);
}

/** Every flag of the chosen projects in one environment, with why it answers as it does for the context. */
function evaluateAll(snapshot: EnvironmentSnapshot, projects: '*' | string[] | undefined, context: EvaluationContext) {
  const segments = new Map<number, ClientSegment>(snapshot.segments.map((segment) => [segment.id, segment]));
  const wanted = projects === undefined || projects === '*' ? null : new Set(projects);
  return snapshot.features
    .filter((feature) => wanted === null || wanted.has(feature.project))
    .map((feature) => ({
      name: feature.name,
      projectId: feature.project,
      ...explainFeature(feature, segments, context),
      variants: feature.variants ?? [],
    }));
}

export async function playground(db: Queryable, input: z.infer<typeof PlaygroundRequest>) {
  const snapshot = await environmentSnapshot(db, input.environment, 'environment');
  return {
    input,
    features: evaluateAll(snapshot, input.projects, evaluationContext(input.context, input.environment)),
  };
}

/** At most this many contexts (the product of every field's comma-separated values) per advanced request. */
const MAX_CONTEXTS = 1000;

/** Each field's value split at commas, and every combination of them: the advanced playground's contexts. */
export function contextCombinations(context: ContextInput): ContextInput[] {
  const { properties, ...fields } = context;
  const axes: [string, string[], boolean][] = [
    ...Object.entries(fields).map(([key, value]): [string, string[], boolean] => [
      key,
      splitValues(String(value)),
      false,
    ]),
    ...Object.entries(properties ?? {}).map(([key, value]): [string, string[], boolean] => [
      key,
      splitValues(value),
      true,
    ]),
  ];
  let combinations: ContextInput[] = [{}];
  for (const [key, values, isProperty] of axes) {
    combinations = combinations.flatMap((partial) =>
      values.map((value) =>
        isProperty ? { ...partial, properties: { ...partial.properties, [key]: value } } : { ...partial, [key]: value },
      ),
    );
    if (combinations.length > MAX_CONTEXTS)
      throw ValidationError.field('context', `gives more than ${MAX_CONTEXTS} combinations of values`);
  }
  return combinations;
}

function splitValues(value: string): string[] {
  const parts = value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  return parts.length > 0 ? parts : [value];
}

export async function advancedPlayground(db: Queryable, input: z.infer<typeof AdvancedPlaygroundRequest>) {
  const contexts = contextCombinations(input.context);
  const byFeature = new Map<
    string,
    { name: string; projectId: string; environments: Record<string, AdvancedPlaygroundEvaluation[]> }
  >();
  for (const [index, environment] of input.environments.entries()) {
    const snapshot = await environmentSnapshot(db, environment, `environments.${index}`);
    for (const context of contexts) {
      for (const result of evaluateAll(snapshot, input.projects, evaluationContext(context, environment))) {
        const entry = byFeature.get(result.name) ?? {
          name: result.name,
          projectId: result.projectId,
          environments: {},
        };
        (entry.environments[environment] ??= []).push({ ...result, environment, context: { ...context, environment } });
        byFeature.set(result.name, entry);
      }
    }
  }
  return { input, features: [...byFeature.values()] };
}
