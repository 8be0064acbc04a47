import { ApiRefused, answer, buntingClient } from '@bunting/api-client';
import type { Metrics } from '@bunting/platform';
import { ReceivedSignal } from '@bunting/contracts';
import { runDurableConsumer, type DatabasePool, type Logger, type Messaging } from '@bunting/platform';
import type { ActionDeps } from './action-service.ts';
import { actionStore, type ActionSetRow } from './action-store.ts';
import { compilePayloadFilters } from './payload-filters.ts';

type ActionOutcome = {
  action: string;
  executionParams: Record<string, string>;
  state: 'success' | 'failed' | 'not started';
  details?: string;
};

async function runAction(
  deps: ActionDeps,
  token: string,
  action: ActionSetRow['actions'][number],
): Promise<ActionOutcome> {
  const { project, featureName, environment } = action.executionParams;
  const api = buntingClient({ baseUrl: deps.adminApiUrl(), headers: { authorization: token }, timeoutMs: 30_000 });
  const params = { path: { projectId: project, featureName, environment } };
  try {
    await answer(
      action.action === 'ENABLE_FEATURE'
        ? api.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on', { params })
        : api.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/off', { params }),
    );
    return { action: action.action, executionParams: action.executionParams, state: 'success' };
  } catch (error) {
    if (error instanceof ApiRefused) {
      const message = (error.body as { message?: unknown } | null)?.message;
      return {
        action: action.action,
        executionParams: action.executionParams,
        state: 'failed',
        details: `${error.status}: ${typeof message === 'string' ? message : ''}`,
      };
    }
    return {
      action: action.action,
      executionParams: action.executionParams,
      state: 'failed',
      details: (error as Error).message,
    };
  }
}

/**
 * Reacts to received signals: each enabled action set listening to the signal's endpoint whose filters match
 * runs its actions in order (stopping at the first failure), and the run is recorded. A run is recorded before
 * it starts, once per action set and signal, so a redelivered signal does not run actions twice.
 */
export function startActionRunner(
  deps: ActionDeps & { db: DatabasePool; messaging: Messaging; log: Logger; metrics?: Metrics },
) {
  const { db, messaging } = deps;
  return runDurableConsumer({
    messaging,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
    stream: messaging.names.signalsStream,
    durable: messaging.names.consumer('signal_actions'),
    filterSubject: messaging.names.signalsSubjects,
    schema: ReceivedSignal,
    handle: async (signal) => {
      for (const set of await actionStore.forSource(db, signal.endpointId)) {
        if (!compilePayloadFilters(set.match.payload)(signal.payload)) continue;
        const runId = await actionStore.startRun(db, set.id, signal.id);
        if (runId === null) continue;
        const token = deps.secrets.open(set.actorToken);
        const outcomes: ActionOutcome[] = [];
        for (const action of set.actions) {
          if (outcomes.some((outcome) => outcome.state === 'failed')) {
            outcomes.push({ action: action.action, executionParams: action.executionParams, state: 'not started' });
            continue;
          }
          outcomes.push(await runAction(deps, token, action));
        }
        const state = outcomes.every((outcome) => outcome.state === 'success') ? 'success' : 'failed';
        await actionStore.finishRun(db, runId, state, outcomes);
        if (state === 'failed')
          deps.log.warn({ actionSet: set.id, signal: signal.id, outcomes }, 'an action set run failed');
      }
    },
  });
}
