import { NoContent, TrackPost, type TrackEvent } from '@bunting/contracts';
import { evaluateFeature, PreparedContext } from '@bunting/evaluation';
import type { HttpServer } from '@bunting/platform';
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

/**
 * Tracked outcomes as impact metrics: one counter per event name, its samples labelled with what each named flag
 * answers the event's user now (evaluated here, as the user was answered: the same context gives the same answer),
 * events with the same labels added up. A flag the token cannot see is left out of the labels.
 */
export function trackedImpact(
  events: readonly TrackEvent[],
  environment: CompiledEnvironment,
  projects: readonly string[],
  callerAddress: string,
) {
  // Only the flags the events name are looked up (an environment may hold 10,000): one pass, no map of them all.
  const named = new Set(events.flatMap((event) => event.flags));
  const visible = new Map<string, Feature>();
  for (const feature of environment.visibleFeatures(projects)) {
    if (named.has(feature.compiled.name)) visible.set(feature.compiled.name, feature);
  }
  const counters = new Map<string, Map<string, { labels: Record<string, string>; value: number }>>();
  for (const event of events) {
    const raw = ofrepContext({ context: event.context }, callerAddress);
    if (raw.environment === undefined) raw.environment = environment.environment;
    delete raw.targetingKey;
    const context = new PreparedContext(raw);
    const labels: Record<string, string> = {};
    for (const flag of event.flags) {
      const feature = visible.get(flag);
      if (feature) labels[flag] = answerLabel(feature, context);
    }
    if (Object.keys(labels).length === 0) continue;
    const key = JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));
    const samples = counters.get(event.name) ?? new Map();
    counters.set(event.name, samples);
    const held = samples.get(key) ?? { labels, value: 0 };
    held.value += event.value ?? 1;
    samples.set(key, held);
  }
  return [...counters].map(([name, samples]) => ({
    name,
    help: `${name}, tracked through OpenFeature`,
    type: 'counter' as const,
    samples: [...samples.values()],
  }));
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
      const impact = trackedImpact(request.body.events, environment, access.projects, request.ip);
      const admitted = deps.admitImpact(impact, access.environment);
      if (admitted) {
        const now = new Date().toISOString();
        await deps.sendMetrics({
          kind: 'client-metrics',
          environment: access.environment,
          tokenName: access.tokenName,
          body: {
            appName: request.body.appName ?? 'openfeature',
            bucket: { start: now, stop: now, toggles: {} },
            impactMetrics: admitted,
          },
        });
      }
      return reply.code(202).send();
    },
  );
}
