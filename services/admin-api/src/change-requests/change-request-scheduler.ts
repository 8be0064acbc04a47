import type { Metrics } from '@bunting/platform';
import { SYSTEM_ACTOR } from '@bunting/contracts';
import { DomainError, repeatEvery, type Logger } from '@bunting/platform';
import type { Changes } from '../events/changes.ts';
import { applyAll } from './change-request-service.ts';
import { changeRequestStore, type RequestRow } from './change-request-store.ts';

const BATCH = 20;
const eventScope = (request: RequestRow) => ({ project: request.project, environment: request.environment });

/**
 * Applies scheduled change requests when their time comes. Every admin-api replica runs one; each request is
 * taken under a row lock (others skip it) and re-checked inside the transaction that applies it, so it is
 * applied once however many replicas look. A request whose time passed while every replica was down is taken on
 * the first tick after start. One whose changes now conflict is marked failed; one whose scheduling user was
 * deleted is suspended.
 */
export function startChangeRequestScheduler(
  deps: { db: Parameters<typeof changeRequestStore.due>[0]; changes: Changes; log: Logger; metrics?: Metrics },
  intervalMs: number,
) {
  const outcomes = deps.metrics?.counter(
    'bunting_change_request_schedules_total',
    'Scheduled change requests handled by this replica, by outcome (applied, failed, suspended)',
    ['outcome'],
  );
  const { db, changes, log } = deps;

  async function suspendOrphans() {
    for (const orphan of await changeRequestStore.orphanedSchedules(db)) {
      await changes.run({ system: SYSTEM_ACTOR }, async (change) => {
        const request = await changeRequestStore.get(change.tx, orphan.id, { forUpdate: true, skipLocked: true });
        if (!request || request.state !== 'Scheduled' || request.scheduleStatus !== 'pending') return;
        const reason = `The user who scheduled this change request (user id: ${orphan.userId}) has been deleted from this Bunting instance.`;
        await changeRequestStore.setSchedule(change.tx, request.id, {
          at: request.scheduledAt,
          status: 'suspended',
          reason,
        });
        change.emit({
          type: 'change-request-schedule-suspended',
          ...eventScope(request),
          data: { changeRequestId: request.id, scheduledAt: request.scheduledAt, reason },
        });
      });
      outcomes?.inc({ outcome: 'suspended' });
    }
  }

  async function applyDue(id: number) {
    const seen = await changeRequestStore.get(db, id);
    if (!seen) return;
    const actor = {
      createdBy: seen.scheduledByName ?? SYSTEM_ACTOR.createdBy,
      createdByUserId: seen.scheduledByUserId ?? SYSTEM_ACTOR.createdByUserId,
    };
    try {
      const applied = await changes.run({ system: actor }, async (change) => {
        const request = await changeRequestStore.get(change.tx, id, { forUpdate: true, skipLocked: true });
        // Another replica holds it, or has already applied it.
        if (
          !request ||
          request.state !== 'Scheduled' ||
          request.scheduleStatus !== 'pending' ||
          Date.parse(request.scheduledAt!) > Date.now()
        )
          return false;
        await applyAll(change, request);
        change.emit({
          type: 'change-request-scheduled-application-success',
          ...eventScope(request),
          data: { changeRequestId: id, scheduledAt: request.scheduledAt },
        });
        return true;
      });
      if (applied) outcomes?.inc({ outcome: 'applied' });
    } catch (error) {
      // Only a refusal (a conflict, a rule the changes now break) fails the schedule; an outage is tried again.
      if (!(error instanceof DomainError)) throw error;
      const failed = await changes.run({ system: actor }, async (change) => {
        const request = await changeRequestStore.get(change.tx, id, { forUpdate: true, skipLocked: true });
        if (!request || request.state !== 'Scheduled' || request.scheduleStatus !== 'pending') return false;
        await changeRequestStore.setSchedule(change.tx, id, {
          at: request.scheduledAt,
          status: 'failed',
          reason: error.message,
        });
        change.emit({
          type: 'change-request-scheduled-application-failure',
          ...eventScope(request),
          data: { changeRequestId: id, scheduledAt: request.scheduledAt, reason: error.message },
        });
        return true;
      });
      if (failed) outcomes?.inc({ outcome: 'failed' });
    }
  }

  return repeatEvery(
    async (stopping) => {
      await suspendOrphans();
      for (const id of await changeRequestStore.due(db, BATCH)) {
        if (stopping.aborted) return;
        await applyDue(id);
      }
    },
    intervalMs,
    { log, what: 'scheduled change requests' },
  );
}
