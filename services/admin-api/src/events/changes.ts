import { randomUUID } from 'node:crypto';
import type { Actor, DomainEvent, EventType, Principal, Tag } from '@bunting/contracts';
import {
  actorOf,
  eventMessages,
  type DatabasePool,
  type DatabaseTransactionConnection,
  type Messaging,
  type Outbox,
  type OutboxMessage,
} from '@bunting/platform';
import { eventTagStore } from './event-tag-store.ts';
import type { WriteTx } from './write-tx.ts';

/** What a change says happened; the unit fills in uuid, time, actor and the feature's tags. */
export type EventDraft = {
  type: EventType;
  project?: string | null;
  environment?: string | null;
  featureName?: string | null;
  data?: Record<string, unknown> | null;
  preData?: Record<string, unknown> | null;
  tags?: Tag[];
};

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
  return {
    run(runner, work) {
      const actor = actorOfRunner(runner);
      return deps.db.transaction(async (tx) => {
        const drafts: EventDraft[] = [];
        const approved: EnvironmentScope[] = [];
        const before = await deps.gate.before(tx);
        const change: Change = {
          tx: tx as WriteTx,
          actor,
          emit: (draft) => drafts.push(draft),
          approve: (scopes) => approved.push(...scopes),
        };
        const result = await work(change);
        let seen = 0;
        for (let round = 0; round < MAX_REACTION_ROUNDS && seen < drafts.length; round += 1) {
          const fresh = drafts.slice(seen);
          seen = drafts.length;
          for (const react of deps.reactions ?? []) await react(change, fresh);
        }
        if (drafts.length > 0) {
          await deps.gate.check(tx, { runner, approved, drafts, before });
          const events = await toEvents(tx, actor, drafts);
          await deps.outbox.add(tx, eventMessages(deps.messaging, events));
          for (const publish of deps.publishers ?? []) await deps.outbox.add(tx, await publish(change.tx, drafts));
          const projects = [...new Set(events.map((event) => event.project).filter((project) => project !== null))];
          if (projects.length > 0) await deps.touchProjects(change.tx, projects);
        }
        return result;
      });
    },
  };
}

async function toEvents(tx: DatabaseTransactionConnection, actor: Actor, drafts: EventDraft[]): Promise<DomainEvent[]> {
  const needTags = [...new Set(drafts.filter((d) => d.featureName && !d.tags).map((d) => d.featureName!))];
  const tagsByFeature = new Map<string, Tag[]>();
  if (needTags.length > 0) {
    for (const row of await eventTagStore.forFeatures(tx, needTags)) {
      const list = tagsByFeature.get(row.featureName) ?? [];
      list.push({ value: row.value, type: row.type });
      tagsByFeature.set(row.featureName, list);
    }
  }
  const createdAt = new Date().toISOString();
  const groupId = randomUUID();
  return drafts.map((draft) => ({
    uuid: randomUUID(),
    type: draft.type,
    createdAt,
    createdBy: actor.createdBy,
    createdByUserId: actor.createdByUserId,
    environment: draft.environment ?? null,
    project: draft.project ?? null,
    featureName: draft.featureName ?? null,
    data: draft.data ?? null,
    preData: draft.preData ?? null,
    tags: draft.tags ?? (draft.featureName ? (tagsByFeature.get(draft.featureName) ?? []) : []),
    groupId,
    ...(actor.createdVia ? { createdVia: actor.createdVia } : {}),
  }));
}
