import type { Actor, Principal, Tag } from '@bunting/contracts';
import {
  actorOf,
  createUnitOfWork,
  type DatabasePool,
  type DatabaseTransactionConnection,
  type EventDraft,
  type Messaging,
  type Outbox,
  type OutboxMessage,
} from '@bunting/platform';
import { eventTagStore } from './event-tag-store.ts';
import type { WriteTx } from './write-tx.ts';

export type { EventDraft };

/** A project environment: where change requests are switched on or off. */
export type EnvironmentScope = { project: string; environment: string };

/**
 * Who runs a change. A principal is a caller of the API (a person, a token, a service account); `system` is
 * Bunting itself (start-up, timers). Neither may touch an environment where change requests are on unless the
 * principal may skip them there, or the work declares, with `approve`, the environments an approval covers.
 */
export type Runner = Principal | { system: Actor };

export type Change = {
  /** The unit's transaction: the only connection a store writes through. */
  tx: WriteTx;
  actor: Actor;
  emit: (draft: EventDraft) => void;
  /**
   * Declares that this change carries out what was approved in these environments: a change request being
   * applied, or an automatic action approved when it was configured. Only those callers say it.
   */
  approve: (scopes: readonly EnvironmentScope[]) => void;
};

/** What the unit asks before it commits: whether the runner may make a change that wrote these events. */
export type ChangeGate = {
  /** What the gate must know from before the work ran (settings the work itself may remove). */
  before: (tx: DatabaseTransactionConnection) => Promise<unknown>;
  /** Throws when the change touches an environment it may not; runs inside the transaction, before the events are written. */
  check: (
    tx: DatabaseTransactionConnection,
    run: { runner: Runner; approved: readonly EnvironmentScope[]; drafts: readonly EventDraft[]; before: unknown },
  ) => Promise<void>;
};

/** Several gates as one: each sees the change, in order; the first to refuse stops it. */
export function combineGates(gates: readonly ChangeGate[]): ChangeGate {
  return {
    before: async (tx) => Promise.all(gates.map((gate) => gate.before(tx))),
    async check(tx, run) {
      const before = run.before as unknown[];
      for (const [index, gate] of gates.entries()) await gate.check(tx, { ...run, before: before[index] });
    },
  };
}

/**
 * What a slice does within any change whose events concern it (a flag environment switched on starting a release
 * plan waiting there): it runs in the same transaction after the work, before the gate, and may write events of its
 * own, which the reactions see in turn.
 */
export type ChangeReaction = (change: Change, drafts: readonly EventDraft[]) => Promise<void>;

/** Reactions answering reactions stop here: more rounds would be a loop. */
const MAX_REACTION_ROUNDS = 4;

export type Changes = {
  /**
   * Runs `work` in one transaction, checks the change against change control, and writes every event it emitted
   * to the outbox in that same transaction.
   */
  run: <T>(runner: Runner, work: (change: Change) => Promise<T>) => Promise<T>;
};

export const actorOfRunner = (runner: Runner): Actor => ('system' in runner ? runner.system : actorOf(runner));

/**
 * The unit of work, given what it asks of the slices above it: the change-control gate, and moving on the last
 * activity of the projects a change's events name.
 */
export function createChanges(deps: {
  db: DatabasePool;
  outbox: Outbox;
  messaging: Pick<Messaging, 'names'>;
  gate: ChangeGate;
  touchProjects: (tx: WriteTx, projects: readonly string[]) => Promise<unknown>;
  reactions?: readonly ChangeReaction[];
  /**
   * What else a change writes to the outbox once it passed the gate, beside its events: the configuration feed the
   * SDK edges serve (configuration-feed/).
   */
  publishers?: readonly ((tx: WriteTx, drafts: readonly EventDraft[]) => Promise<OutboxMessage[]>)[];
}): Changes {
  // The platform's unit of work; admin-api adds the gate, the reactions, the feed and the projects' last activity.
  const unit = createUnitOfWork({ db: deps.db, outbox: deps.outbox, messaging: deps.messaging, tagsOf });
  return {
    run(runner, work) {
      return unit.run(actorOfRunner(runner), async (uow) => {
        const approved: EnvironmentScope[] = [];
        const before = await deps.gate.before(uow.tx);
        const change: Change = {
          tx: uow.tx as WriteTx,
          actor: uow.actor,
          emit: uow.emit,
          approve: (scopes) => approved.push(...scopes),
        };
        const result = await work(change);
        let seen = 0;
        for (let round = 0; round < MAX_REACTION_ROUNDS && seen < uow.drafts().length; round += 1) {
          const fresh = uow.drafts().slice(seen);
          seen = uow.drafts().length;
          for (const react of deps.reactions ?? []) await react(change, fresh);
        }
        const drafts = uow.drafts();
        if (drafts.length > 0) {
          await deps.gate.check(uow.tx, { runner, approved, drafts, before });
          for (const publish of deps.publishers ?? [])
            for (const message of await publish(change.tx, drafts)) uow.publish(message);
          const projects = [...new Set(drafts.flatMap((draft) => (draft.project ? [draft.project] : [])))];
          if (projects.length > 0) await deps.touchProjects(change.tx, projects);
        }
        return result;
      });
    },
  };
}

/** The tags of the flags a change's events name, which Unleash puts on each event. */
async function tagsOf(tx: DatabaseTransactionConnection, featureNames: readonly string[]): Promise<Map<string, Tag[]>> {
  const tags = new Map<string, Tag[]>();
  for (const row of await eventTagStore.forFeatures(tx, [...featureNames])) {
    const list = tags.get(row.featureName) ?? [];
    list.push({ value: row.value, type: row.type });
    tags.set(row.featureName, list);
  }
  return tags;
}
