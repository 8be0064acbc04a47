import type { Metrics } from '@bunting/platform';
import { z } from 'zod';
import { ReceivedSignal } from '@bunting/contracts';
import { runDurableConsumer, sql, type DatabasePool, type Logger, type Messaging } from '@bunting/platform';
import type { ActionDeps } from './action-service.ts';
import { actionStore, type ActionSetRow } from './action-store.ts';
import { compilePayloadFilters } from './payload-filters.ts';

type ActionOutcome = { action: string; executionParams: Record<string, string>; state: 'success' | 'failed' | 'not started'; details?: string };

async function runAction(deps: ActionDeps, token: string, action: ActionSetRow['actions'][number]): Promise<ActionOutcome> {
  const { project, featureName, environment } = action.executionParams;
  const path = `/api/admin/projects/${encodeURIComponent(project)}/features/${encodeURIComponent(featureName)}/environments/${encodeURIComponent(environment)}/${action.action === 'ENABLE_FEATURE' ? 'on' : 'off'}`;
  try {
    const response = await fetch(`${deps.adminApiUrl()}${path}`, { method: 'POST', headers: { authorization: token } });
    if (response.ok) return { action: action.action, executionParams: action.executionParams, state: 'success' };
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    return { action: action.action, executionParams: action.executionParams, state: 'failed', details: `${response.status}: ${body.message ?? ''}` };
  } catch (error) {
    return { action: action.action, executionParams: action.executionParams, state: 'failed', details: (error as Error).message };
  }
}

/**
 * Reacts to received signals: each enabled action set listening to the signal's endpoint whose filters match
 * runs its actions in order (stopping at the first failure), and the run is recorded. A run is recorded before
 * it starts, once per action set and signal, so a redelivered signal does not run actions twice.
 */
export function startActionRunner(deps: ActionDeps & { db: DatabasePool; messaging: Messaging; log: Logger; metrics?: Metrics }) {
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
        const runId = await db.maybeOneFirst(sql.type(z.object({ id: z.number() }))`
          insert into signals.action_runs (action_set_id, signal_id, state) values (${set.id}, ${signal.id}, 'running')
          on conflict (action_set_id, signal_id) do nothing returning id`);
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
        await db.query(sql.unsafe`update signals.action_runs set state = ${state}, actions = ${sql.jsonb(outcomes)}, finished_at = now()
          where id = ${runId}`);
        if (state === 'failed') deps.log.warn({ actionSet: set.id, signal: signal.id, outcomes }, 'an action set run failed');
      }
    },
  });
}

const RunRow = z.object({ id: z.number(), actionSetId: z.number(), signalId: z.number(), state: z.string(), actions: z.array(z.unknown()), createdAt: z.string(), finishedAt: z.string().nullable() });

export function listRuns(db: DatabasePool, actionSetId: number, limit: number) {
  return db.any(sql.type(RunRow)`select r.id, r.action_set_id as "actionSetId", r.signal_id as "signalId", r.state, r.actions,
    r.created_at as "createdAt", r.finished_at as "finishedAt" from signals.action_runs r
    where r.action_set_id = ${actionSetId} order by r.id desc limit ${limit}`);
}
