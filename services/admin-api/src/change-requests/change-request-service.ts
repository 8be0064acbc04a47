import type {
  ChangeRequestChangeInput,
  ChangeRequestState,
  Principal,
  UpdateChangeRequestState,
} from '@bunting/contracts';
import { OPEN_CHANGE_REQUEST_STATES } from '@bunting/contracts';
import {
  NameExistsError,
  NotFoundError,
  OperationRefused,
  Permission,
  ValidationError,
  hasPermission,
  requirePermission,
  type Queryable,
} from '@bunting/platform';
import { changeRequestGate, unitOfWorkGate } from '../change-request-settings/change-request-gate.ts';
import type { Change, EventDraft } from '../events/changes.ts';
import type { WriteTx } from '../events/write-tx.ts';
import { requireSegment } from '../segments/segment-service.ts';
import { CHANGE_HANDLERS, featureConflict, type RequestScope } from './change-actions.ts';
import { changeRequestStore, type Author, type ChangeRow, type RequestRow } from './change-request-store.ts';

export function authorOf(principal: Principal): Author {
  // API tokens have no user: the request records the token's name.
  return { userId: principal.kind === 'api-token' ? null : principal.userId, name: principal.name, imageUrl: null };
}

export async function requireChangeRequest(
  db: Queryable,
  project: string,
  id: number,
  options: { forUpdate?: boolean } = {},
): Promise<RequestRow> {
  const request = await changeRequestStore.get(db, id, options);
  if (!request || request.project !== project)
    throw new NotFoundError(`Could not find change request ${id} in project ${project}`);
  return request;
}

const scopeOf = (request: RequestRow): RequestScope => ({ project: request.project, environment: request.environment });
const isAuthor = (request: RequestRow, principal: Principal) =>
  principal.kind !== 'api-token'
    ? request.createdByUserId === principal.userId
    : request.createdByUserId === null && request.createdByName === principal.name;
const eventScope = (request: RequestRow) => ({ project: request.project, environment: request.environment });
const refused = (message: string) => new OperationRefused(message);

/**
 * Runs a change against the database inside a savepoint and rolls it back: the same checks the direct route
 * makes (the flag exists, the strategy's constraints are valid, the segment is in use...), and the change-control
 * check its application will meet (a segment used where this request is not approved), at the moment it is
 * proposed rather than only when it is applied.
 */
async function dryRun(change: Change, scope: RequestScope, input: ChangeRequestChangeInput) {
  const rollback = new Error('dry run');
  try {
    await change.tx.transaction(async (savepoint) => {
      const drafts: EventDraft[] = [];
      const before = await unitOfWorkGate.before(savepoint);
      // A savepoint of the unit's own transaction: a trial run, rolled back below.
      await CHANGE_HANDLERS[input.action].apply(
        {
          tx: savepoint as WriteTx,
          actor: change.actor,
          emit: (draft) => drafts.push(draft),
          approve: () => undefined,
        },
        scope,
        {
          feature: 'feature' in input ? input.feature : null,
          action: input.action,
          payload: input.payload ?? {},
          snapshot: null,
        },
      );
      await unitOfWorkGate.check(savepoint, { runner: { system: change.actor }, approved: [scope], drafts, before });
      throw rollback;
    });
  } catch (error) {
    if (error !== rollback) throw error;
  }
}

async function checkProposer(
  db: Queryable,
  principal: Principal,
  scope: RequestScope,
  input: ChangeRequestChangeInput,
) {
  const needed = CHANGE_HANDLERS[input.action].permission(scope);
  if (input.action === 'updateSegment' || input.action === 'deleteSegment') {
    // A project's own segments may also be changed by whoever may update that project's segments, through that
    // project's change requests; a global segment or another project's needs the root permission.
    const segment = await requireSegment(db, input.payload.id);
    if (
      segment.project === scope.project &&
      hasPermission(principal, Permission.UPDATE_PROJECT_SEGMENT, { project: scope.project })
    )
      return;
  }
  requirePermission(principal, needed.permission, needed.scope);
}

async function stored(change: Change, scope: RequestScope, input: ChangeRequestChangeInput) {
  const row = {
    feature: 'feature' in input ? input.feature : null,
    action: input.action,
    payload: input.payload ?? {},
    snapshot: null as unknown,
  };
  await dryRun(change, scope, input);
  row.snapshot = (await CHANGE_HANDLERS[input.action].snapshot(change.tx, scope, row)) ?? null;
  return row;
}

/** A change to an approved or reviewed request sends it back to review: earlier approvals were for other changes. */
async function backToReview(change: Change, request: RequestRow) {
  if (request.state !== 'Approved' && request.state !== 'In review') return;
  await changeRequestStore.clearApprovals(change.tx, request.id);
  if (request.state === 'Approved') await changeRequestStore.setState(change.tx, request.id, 'In review');
}

function requireOpenForEdits(request: RequestRow) {
  if (!['Draft', 'In review', 'Approved'].includes(request.state)) {
    throw ValidationError.field(
      'state',
      `change request ${request.id} is ${request.state} and can no longer be changed`,
    );
  }
}

/** Why a change cannot be applied as drafted, or undefined. */
export async function conflictOf(db: Queryable, scope: RequestScope, row: ChangeRow): Promise<string | undefined> {
  if (row.feature) {
    const feature = await featureConflict(db, scope, row.feature);
    if (feature) return feature;
  }
  return CHANGE_HANDLERS[row.action as ChangeRequestChangeInput['action']].conflict(db, scope, row);
}

export const changeRequestService = {
  /**
   * Adds changes to the caller's draft for the project environment, starting one if there is none. Each change
   * is checked as the direct route would check it, and refused whole if one fails.
   */
  async propose(
    change: Change,
    principal: Principal,
    scope: RequestScope,
    inputs: readonly ChangeRequestChangeInput[],
  ): Promise<number> {
    if (!(await changeRequestGate.isOn(change.tx, scope))) {
      throw ValidationError.field(
        'environment',
        `change requests are not enabled for project ${scope.project} in ${scope.environment}`,
      );
    }
    for (const input of inputs) await checkProposer(change.tx, principal, scope, input);
    const author = authorOf(principal);
    let request = await changeRequestStore.draftOf(change.tx, scope.project, scope.environment, author);
    if (!request) {
      const id = await changeRequestStore.insert(change.tx, scope.project, scope.environment, author);
      request =
        id === null
          ? await changeRequestStore.draftOf(change.tx, scope.project, scope.environment, author)
          : await changeRequestStore.get(change.tx, id);
      if (id !== null)
        change.emit({
          type: 'change-request-created',
          ...eventScope(request!),
          data: { changeRequestId: request!.id, state: 'Draft' },
        });
    }
    for (const input of inputs) {
      const row = await stored(change, scope, input);
      const changeId = await changeRequestStore.insertChange(change.tx, request!.id, row, author);
      change.emit({
        type: 'change-added',
        ...eventScope(request!),
        featureName: row.feature,
        data: { changeRequestId: request!.id, changeId, action: row.action, payload: row.payload },
      });
    }
    return request!.id;
  },

  /** Replaces one change (it gets a new id, as in Unleash). Only the author may. */
  async editChange(
    change: Change,
    principal: Principal,
    project: string,
    id: number,
    changeId: number,
    input: ChangeRequestChangeInput,
  ) {
    const request = await requireChangeRequest(change.tx, project, id, { forUpdate: true });
    requireOpenForEdits(request);
    if (!isAuthor(request, principal)) throw refused('Only the author of a change request may change it');
    const before = await changeRequestStore.change(change.tx, id, changeId);
    if (!before) throw new NotFoundError(`Could not find change ${changeId} in change request ${id}`);
    await checkProposer(change.tx, principal, scopeOf(request), input);
    const row = await stored(change, scopeOf(request), input);
    await changeRequestStore.deleteChange(change.tx, id, changeId);
    const newId = await changeRequestStore.insertChange(change.tx, id, row, authorOf(principal));
    await backToReview(change, request);
    change.emit({
      type: 'change-edited',
      ...eventScope(request),
      featureName: row.feature,
      data: { changeRequestId: id, changeId: newId, action: row.action, payload: row.payload },
      preData: { changeRequestId: id, changeId, action: before.action, payload: before.payload },
    });
  },

  async discardChange(change: Change, principal: Principal, project: string, id: number, changeId: number) {
    const request = await requireChangeRequest(change.tx, project, id, { forUpdate: true });
    requireOpenForEdits(request);
    if (!isAuthor(request, principal)) throw refused('Only the author of a change request may change it');
    const before = await changeRequestStore.change(change.tx, id, changeId);
    if (!before) throw new NotFoundError(`Could not find change ${changeId} in change request ${id}`);
    await changeRequestStore.deleteChange(change.tx, id, changeId);
    await backToReview(change, request);
    change.emit({
      type: 'change-discarded',
      ...eventScope(request),
      featureName: before.feature,
      data: { changeRequestId: id, changeId },
      preData: { action: before.action, payload: before.payload },
    });
  },

  /** Deleting a request that was never applied: its author, or an admin. */
  async discard(change: Change, principal: Principal, project: string, id: number) {
    const request = await requireChangeRequest(change.tx, project, id, { forUpdate: true });
    requireOpenForEdits(request);
    if (!isAuthor(request, principal) && !hasPermission(principal, Permission.ADMIN))
      throw refused('Only the author of a change request or an admin may discard it');
    await changeRequestStore.delete(change.tx, id);
    change.emit({
      type: 'change-request-discarded',
      ...eventScope(request),
      data: { changeRequestId: id, title: request.title },
    });
  },

  async setTitle(change: Change, principal: Principal, project: string, id: number, title: string) {
    const request = await requireChangeRequest(change.tx, project, id, { forUpdate: true });
    if (!OPEN_CHANGE_REQUEST_STATES.includes(request.state as ChangeRequestState)) {
      throw ValidationError.field('state', `change request ${id} is ${request.state} and can no longer be changed`);
    }
    if (!isAuthor(request, principal) && !hasPermission(principal, Permission.ADMIN))
      throw refused('Only the author of a change request or an admin may rename it');
    await changeRequestStore.setTitle(change.tx, id, title);
  },

  async comment(change: Change, principal: Principal, project: string, id: number, text: string) {
    await requireChangeRequest(change.tx, project, id);
    await changeRequestStore.addComment(change.tx, id, text, authorOf(principal));
  },

  /** The state asked for, if the rules allow it. */
  async setState(change: Change, principal: Principal, project: string, id: number, input: UpdateChangeRequestState) {
    const request = await requireChangeRequest(change.tx, project, id, { forUpdate: true });
    const scope = scopeOf(request);
    const from = request.state as ChangeRequestState;
    const notFrom = (allowed: ChangeRequestState[]) => {
      if (!allowed.includes(from))
        throw ValidationError.field('state', `a change request that is ${from} cannot become ${input.state}`);
    };
    switch (input.state) {
      case 'In review': {
        notFrom(['Draft']);
        if (!isAuthor(request, principal)) throw refused('Only the author may send a change request to review');
        if ((await changeRequestStore.changes(change.tx, [id])).length === 0)
          throw ValidationError.field('state', 'a change request with no changes cannot be reviewed');
        await changeRequestStore.setState(change.tx, id, 'In review');
        change.emit({
          type: 'change-request-sent-to-review',
          ...eventScope(request),
          data: { changeRequestId: id, state: 'In review' },
        });
        return;
      }
      case 'Approved': {
        notFrom(['In review']);
        requirePermission(principal, Permission.APPROVE_CHANGE_REQUEST, scope);
        if (principal.kind === 'api-token' || principal.userId === null)
          throw refused('Approvals come from people: an API token cannot approve');
        if (isAuthor(request, principal)) throw refused('The author of a change request may not approve it');
        if (
          (await changeRequestStore.approvals(change.tx, [id])).some((approval) => approval.userId === principal.userId)
        ) {
          throw ValidationError.field('state', `${principal.name} has already approved change request ${id}`);
        }
        await changeRequestStore.addApproval(change.tx, id, {
          userId: principal.userId,
          name: principal.name,
          imageUrl: null,
        });
        if (input.comment) await changeRequestStore.addComment(change.tx, id, input.comment, authorOf(principal));
        change.emit({
          type: 'change-request-approval-added',
          ...eventScope(request),
          data: {
            changeRequestId: id,
            approvedBy: principal.name,
            ...(input.comment ? { comment: input.comment } : {}),
          },
        });
        const approvals = (await changeRequestStore.approvals(change.tx, [id])).length;
        const { requiredApprovals } = await changeRequestGate.settings(change.tx, scope);
        if (approvals >= requiredApprovals) {
          await changeRequestStore.setState(change.tx, id, 'Approved');
          change.emit({
            type: 'change-request-approved',
            ...eventScope(request),
            data: { changeRequestId: id, state: 'Approved', approvals },
          });
        }
        return;
      }
      case 'Rejected': {
        notFrom(['In review', 'Approved', 'Scheduled']);
        requirePermission(principal, Permission.APPROVE_CHANGE_REQUEST, scope);
        if (principal.kind === 'api-token' || principal.userId === null)
          throw refused('Rejections come from people: an API token cannot reject');
        if (isAuthor(request, principal))
          throw refused('The author of a change request cancels it rather than rejecting it');
        await changeRequestStore.addRejection(change.tx, id, {
          userId: principal.userId,
          name: principal.name,
          imageUrl: null,
        });
        if (input.comment) await changeRequestStore.addComment(change.tx, id, input.comment, authorOf(principal));
        await changeRequestStore.setState(change.tx, id, 'Rejected');
        await changeRequestStore.setSchedule(change.tx, id, { at: null, status: null, reason: null });
        change.emit({
          type: 'change-request-rejected',
          ...eventScope(request),
          data: { changeRequestId: id, state: 'Rejected', ...(input.comment ? { comment: input.comment } : {}) },
        });
        return;
      }
      case 'Cancelled': {
        notFrom(['Draft', 'In review', 'Approved', 'Scheduled']);
        if (!isAuthor(request, principal) && !hasPermission(principal, Permission.ADMIN))
          throw refused('Only the author of a change request or an admin may cancel it');
        await changeRequestStore.setState(change.tx, id, 'Cancelled');
        await changeRequestStore.setSchedule(change.tx, id, { at: null, status: null, reason: null });
        change.emit({
          type: 'change-request-cancelled',
          ...eventScope(request),
          data: { changeRequestId: id, state: 'Cancelled' },
        });
        return;
      }
      case 'Scheduled': {
        notFrom(['Approved', 'Scheduled']);
        requirePermission(principal, Permission.APPLY_CHANGE_REQUEST, scope);
        if (!input.scheduledAt)
          throw ValidationError.field('scheduledAt', 'a schedule needs the time to apply the change request at');
        if (Date.parse(input.scheduledAt) <= Date.now())
          throw ValidationError.field('scheduledAt', 'must be in the future');
        if (principal.kind === 'api-token' || principal.userId === null)
          throw refused('A schedule runs as the person who made it: an API token cannot schedule');
        const at = new Date(input.scheduledAt).toISOString();
        await changeRequestStore.setState(change.tx, id, 'Scheduled');
        await changeRequestStore.setSchedule(change.tx, id, {
          at,
          status: 'pending',
          reason: null,
          byUserId: principal.userId,
          byName: principal.name,
        });
        change.emit({
          type: 'change-request-scheduled',
          ...eventScope(request),
          data: { changeRequestId: id, scheduledAt: at },
        });
        return;
      }
      case 'Applied': {
        notFrom(['Approved', 'Scheduled']);
        requirePermission(principal, Permission.APPLY_CHANGE_REQUEST, scope);
        await applyAll(change, request);
        return;
      }
      default:
        throw ValidationError.field('state', `a change request cannot be set to ${input.state}`);
    }
  },

  async setReviewers(
    change: Change,
    principal: Principal,
    project: string,
    id: number,
    userIds: readonly number[],
    existing: (ids: readonly number[]) => Promise<number[]>,
  ) {
    const request = await requireChangeRequest(change.tx, project, id, { forUpdate: true });
    if (!isAuthor(request, principal) && !hasPermission(principal, Permission.ADMIN))
      throw refused('Only the author of a change request or an admin may choose its reviewers');
    const known = new Set(await existing(userIds));
    const unknown = userIds.find((userId) => !known.has(userId));
    if (unknown !== undefined) throw ValidationError.field('reviewers', `user ${unknown} does not exist`);
    await changeRequestStore.setReviewers(change.tx, id, userIds);
  },
};

/**
 * The order changes are applied in: what a flag is configured with first, then switching it on or off (so a
 * strategy proposed with "turn it on" is there when it is turned on, and no default strategy is added), then
 * archiving; otherwise in the order they were proposed.
 */
const APPLICATION_RANK: Partial<Record<string, number>> = { updateEnabled: 1, archiveFeature: 2 };
function inApplicationOrder(rows: readonly ChangeRow[]): ChangeRow[] {
  return [...rows].sort((a, b) => (APPLICATION_RANK[a.action] ?? 0) - (APPLICATION_RANK[b.action] ?? 0) || a.id - b.id);
}

/**
 * Applies every change of a request in order, in the caller's transaction, or none: a conflict or a change the
 * rules now refuse undoes them all. The configuration events are the ones the direct routes write.
 */
export async function applyAll(change: Change, request: RequestRow) {
  const scope = scopeOf(request);
  const rows = await changeRequestStore.changes(change.tx, [request.id]);
  if (rows.length === 0) throw ValidationError.field('state', 'a change request with no changes cannot be applied');
  for (const row of rows) {
    const conflict = await conflictOf(change.tx, scope, row);
    if (conflict) {
      throw new NameExistsError(
        `Change request ${request.id} cannot be applied: ${row.action}${row.feature ? ` on ${row.feature}` : ''}: ${conflict}. Nothing was applied.`,
      );
    }
  }
  // What the request's approvals cover: its own project environment, and no other.
  change.approve([scope]);
  for (const row of inApplicationOrder(rows))
    await CHANGE_HANDLERS[row.action as ChangeRequestChangeInput['action']].apply(change, scope, row);
  await changeRequestStore.setState(change.tx, request.id, 'Applied');
  if (request.state === 'Scheduled')
    await changeRequestStore.setSchedule(change.tx, request.id, {
      at: request.scheduledAt,
      status: null,
      reason: null,
    });
  change.emit({
    type: 'change-request-applied',
    ...eventScope(request),
    data: { changeRequestId: request.id, state: 'Applied', changes: rows.length },
  });
}
