import { z } from 'zod';
import { ActionSetRun, ActionSetView } from '@bunting/contracts';
import { sql, type Queryable } from '@bunting/platform';

const RunRow = ActionSetRun;

// The stored action set is the answer's, with the service account's token (kept sealed, see secret-box.ts).
export const ActionSetRow = ActionSetView.extend({ actorToken: z.string() });
export type ActionSetRow = z.infer<typeof ActionSetRow>;

const columns = sql.fragment`id, project, name, description, enabled, actor_id as "actorId", actor_token as "actorToken", match, actions,
  created_at as "createdAt", created_by_user_id as "createdByUserId"`;

/** An action set as the API and events show it: the actor's token stays inside the service. */
export function actionSetView(row: ActionSetRow) {
  const { actorToken: _token, ...view } = row;
  return view;
}

export const actionStore = {
  list(db: Queryable, project: string) {
    return db.any(
      sql.type(ActionSetRow)`select ${columns} from signals.action_sets where project = ${project} order by id`,
    );
  },
  get(db: Queryable, id: number) {
    return db.maybeOne(sql.type(ActionSetRow)`select ${columns} from signals.action_sets where id = ${id}`);
  },
  forSource(db: Queryable, endpointId: number) {
    return db.any(sql.type(ActionSetRow)`select ${columns} from signals.action_sets
      where enabled and match ->> 'sourceId' = ${String(endpointId)} order by id`);
  },
  insert(db: Queryable, set: Omit<ActionSetRow, 'id' | 'createdAt'>) {
    return db.one(sql.type(ActionSetRow)`insert into signals.action_sets
      (project, name, description, enabled, actor_id, actor_token, match, actions, created_by_user_id)
      values (${set.project}, ${set.name}, ${set.description}, ${set.enabled}, ${set.actorId}, ${set.actorToken},
        ${sql.jsonb(set.match)}, ${sql.jsonb(set.actions)}, ${set.createdByUserId}) returning ${columns}`);
  },
  update(db: Queryable, id: number, set: Omit<ActionSetRow, 'id' | 'createdAt' | 'createdByUserId' | 'project'>) {
    return db.one(sql.type(
      ActionSetRow,
    )`update signals.action_sets set name = ${set.name}, description = ${set.description},
      enabled = ${set.enabled}, actor_id = ${set.actorId}, actor_token = ${set.actorToken}, match = ${sql.jsonb(set.match)},
      actions = ${sql.jsonb(set.actions)} where id = ${id} returning ${columns}`);
  },
  delete(db: Queryable, id: number) {
    return db.query(sql.unsafe`delete from signals.action_sets where id = ${id}`);
  },

  /** Records that an action set starts running for a signal; null when it already did (a redelivered signal). */
  startRun(db: Queryable, actionSetId: number, signalId: number) {
    return db.maybeOneFirst(sql.type(z.object({ id: z.number() }))`
      insert into signals.action_runs (action_set_id, signal_id, state) values (${actionSetId}, ${signalId}, 'running')
      on conflict (action_set_id, signal_id) do nothing returning id`);
  },
  async finishRun(db: Queryable, runId: number, state: string, outcomes: unknown[]) {
    await db.query(
      sql.unsafe`update signals.action_runs set state = ${state}, actions = ${sql.jsonb(outcomes as never)}, finished_at = now() where id = ${runId}`,
    );
  },
  runs(db: Queryable, actionSetId: number, limit: number) {
    return db.any(sql.type(
      RunRow,
    )`select r.id, r.action_set_id as "actionSetId", r.signal_id as "signalId", r.state, r.actions,
      r.created_at as "createdAt", r.finished_at as "finishedAt" from signals.action_runs r
      where r.action_set_id = ${actionSetId} order by r.id desc limit ${limit}`);
  },
};
