import { EXPOSURE, NoContent, TrackPost, type EvaluationContext, type TrackedUnit } from '@bunting/contracts';
import { evaluateFeature, PreparedContext } from '@bunting/evaluation';
import type { HttpServer } from '@bunting/platform';
import { metricsEnvelope } from '../metrics/metrics-publisher.ts';
import type { FrontendDeps } from '../frontend-deps.ts';
import { edgeAccess, type TokenKind } from '../access.ts';
import { ofrepContext } from '../ofrep/ofrep-context.ts';
import type { CompiledEnvironment } from '../snapshots/compiled-environment.ts';

const SDK_TOKENS: readonly TokenKind[] = ['frontend', 'client'];
type Feature = ReturnType<CompiledEnvironment['visibleFeatures']>[number];

/** What the SDKs label an impact metric with for a flag: the variant's name, or enabled/disabled without one. */
function answerLabel(feature: Feature, context: PreparedContext): string {
  const answer = evaluateFeature(feature.compiled, context);
  if (!answer.enabled) return 'disabled';
  return answer.variant?.name ?? 'enabled';
}

const MAX_UNIT_LENGTH = 255;

/** The user an event or exposure is about (targetingKey or userId, else sessionId), when it names one that fits. */
function unitOf(context: EvaluationContext): string | undefined {
  const unit = context.userId ?? context.sessionId;
  return unit !== undefined && unit.length > 0 && unit.length <= MAX_UNIT_LENGTH ? unit : undefined;
}

/**
 * Tracked outcomes as impact metrics: one counter per event name, its samples labelled with what each named flag
 * answers the event's user now (evaluated here, as the user was answered: the same context gives the same answer),
 * events with the same labels added up. A flag the token cannot see is left out of the labels. Events and exposures
 * whose context names the user are also kept per user, for experiments that count users.
 */
export function trackedOutcomes(
  post: Pick<TrackPost, 'events' | 'exposures'>,
  environment: CompiledEnvironment,
  projects: readonly string[],
  callerAddress: string,
) {
  // Only the flags the post names are looked up (an environment may hold 10,000): one pass, no map of them all.
  const named = new Set([...post.events, ...post.exposures].flatMap((entry) => entry.flags));
  const visible = new Map<string, Feature>();
  for (const feature of environment.visibleFeatures(projects)) {
    if (named.has(feature.compiled.name)) visible.set(feature.compiled.name, feature);
  }
  const answer = (entry: { context: Record<string, unknown>; flags: readonly string[] }) => {
    const raw = ofrepContext({ context: entry.context }, callerAddress);
    if (raw.environment === undefined) raw.environment = environment.environment;
    const context = new PreparedContext(raw);
    const labels: Record<string, string> = {};
    for (const flag of entry.flags) {
      const feature = visible.get(flag);
      if (feature) labels[flag] = answerLabel(feature, context);
    }
    const key = JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));
    return { labels, key, unit: unitOf(raw), seen: Object.keys(labels).length > 0 };
  };
  const counters = new Map<string, Map<string, { labels: Record<string, string>; value: number }>>();
  const units = new Map<string, TrackedUnit>();
  const keepUnit = (unit: string, metric: string, key: string, labels: Record<string, string>, value: number) => {
    const unitKey = `${metric}\u0000${unit}\u0000${key}`;
    const kept = units.get(unitKey) ?? { unit, metric, value: 0, events: 0, answers: labels };
    kept.value += value;
    kept.events += 1;
    units.set(unitKey, kept);
  };
  for (const event of post.events) {
    const { labels, key, unit, seen } = answer(event);
    if (!seen) continue;
    const samples = counters.get(event.name) ?? new Map();
    counters.set(event.name, samples);
    const held = samples.get(key) ?? { labels, value: 0 };
    held.value += event.value ?? 1;
    samples.set(key, held);
    if (unit !== undefined) keepUnit(unit, event.name, key, labels, event.value ?? 1);
  }
  for (const exposure of post.exposures) {
    const { labels, key, unit, seen } = answer(exposure);
    if (seen && unit !== undefined) keepUnit(unit, EXPOSURE, key, labels, 0);
  }
  const impact = [...counters].map(([name, samples]) => ({
    name,
    help: `${name}, tracked through OpenFeature`,
    type: 'counter' as const,
    samples: [...samples.values()],
  }));
  return { impact, units: [...units.values()] };
}

/**
 * OpenFeature's tracking (OFREP defines none yet): an application's outcomes, each joined with what the flags it
 * names answer that user, become impact metrics labelled with the flags, so guardrails and experiments split them by
 * variant. Bounded as impact metrics are (per environment, drops counted).
 */
export function trackRoutes(
  app: HttpServer,
  deps: Pick<FrontendDeps, 'snapshots' | 'tokens' | 'sendMetrics' | 'admitImpact'>,
) {
  app.post(
    '/api/frontend/track',
    {
      schema: {
        summary: 'Outcomes tracked with OpenFeature, counted per flag answer as impact metrics',
        body: TrackPost,
        response: { 202: NoContent },
      },
    },
    async (request, reply) => {
      const access = await edgeAccess(deps.tokens, request, SDK_TOKENS);
      const environment =
        deps.snapshots.current(access.environment) ?? (await deps.snapshots.ensure(access.environment));
      const { impact, units } = trackedOutcomes(request.body, environment, access.projects, request.ip);
      const admitted = impact.length > 0 ? deps.admitImpact(impact, access.environment) : undefined;
      const now = new Date().toISOString();
      const appName = request.body.appName ?? 'openfeature';
      if (units.length > 0) {
        await deps.sendMetrics({
          kind: 'tracked-units',
          ...metricsEnvelope(access),
          body: { appName, units },
        });
      }
      if (admitted) {
        await deps.sendMetrics({
          kind: 'client-metrics',
          ...metricsEnvelope(access),
          body: {
            appName,
            bucket: { start: now, stop: now, toggles: {} },
            impactMetrics: admitted,
          },
        });
      }
      return reply.code(202).send();
    },
  );
}
