import type {
  ChangeRequestChange,
  ChangeRequestSchedule,
  ChangeRequestSearchItem,
  ChangeRequestState,
  ChangeRequestView,
} from '@bunting/contracts';
import type { Queryable } from '@bunting/platform';
import { changeRequestGate } from '../change-request-settings/change-request-gate.ts';
import { segmentReadModel } from '../segments/segment-read-model.ts';
import { changeRequestStore, type ChangeRow, type RequestRow } from './change-request-store.ts';
import { conflictOf } from './change-request-service.ts';

function groupBy<T>(items: readonly T[], key: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

function scheduleOf(request: RequestRow): ChangeRequestSchedule | undefined {
  if (request.state !== 'Scheduled' || !request.scheduledAt || !request.scheduleStatus) return undefined;
  const status = request.scheduleStatus as ChangeRequestSchedule['status'];
  if (status === 'pending') return { scheduledAt: request.scheduledAt, status };
  return {
    scheduledAt: request.scheduledAt,
    status,
    reason: request.scheduleReason ?? '',
    ...(status === 'failed' ? { failureReason: request.scheduleReason } : {}),
  };
}

async function changeView(
  db: Queryable,
  request: RequestRow,
  row: ChangeRow,
  withConflicts: boolean,
): Promise<ChangeRequestChange> {
  const conflict = withConflicts
    ? await conflictOf(db, { project: request.project, environment: request.environment }, row)
    : undefined;
  return {
    id: row.id,
    action: row.action,
    ...(conflict ? { conflict } : {}),
    payload: row.payload,
    createdBy: { username: row.createdByName, imageUrl: row.createdByImageUrl },
    createdAt: row.createdAt,
  };
}

/**
 * Change requests as Unleash answers them (changeRequestSchema): changes grouped by flag, segment changes apart,
 * each open request's changes checked for conflicts with the configuration as it is now.
 */
export async function changeRequestViews(db: Queryable, requests: readonly RequestRow[]): Promise<ChangeRequestView[]> {
  if (requests.length === 0) return [];
  const ids = requests.map((request) => request.id);
  const [changes, approvals, rejections, comments, segmentNames] = await Promise.all([
    changeRequestStore.changes(db, ids),
    changeRequestStore.approvals(db, ids),
    changeRequestStore.rejections(db, ids),
    changeRequestStore.comments(db, ids),
    segmentReadModel.names(db),
  ]);
  const changesOf = groupBy(changes, (row) => row.changeRequestId);
  const approvalsOf = groupBy(approvals, (row) => row.changeRequestId);
  const rejectionsOf = groupBy(rejections, (row) => row.changeRequestId);
  const commentsOf = groupBy(comments, (row) => row.changeRequestId);
  const approvalCounts = new Map<string, number>();

  const views: ChangeRequestView[] = [];
  for (const request of requests) {
    const open = ['Draft', 'In review', 'Approved', 'Scheduled'].includes(request.state);
    const features = new Map<string, ChangeRequestView['features'][number]>();
    const segments: ChangeRequestView['segments'] = [];
    for (const row of changesOf.get(request.id) ?? []) {
      const view = await changeView(db, request, row, open);
      if (row.feature) {
        const entry = features.get(row.feature) ?? { name: row.feature, changes: [] };
        entry.changes.push(view);
        features.set(row.feature, entry);
      } else {
        const id = (row.payload as { id: number }).id;
        segments.push({ ...view, name: segmentNames.get(id) ?? (row.payload as { name?: string }).name ?? String(id) });
      }
    }
    const key = `${request.project}\u0000${request.environment}`;
    if (!approvalCounts.has(key))
      approvalCounts.set(key, (await changeRequestGate.settings(db, request)).requiredApprovals);
    const schedule = scheduleOf(request);
    views.push({
      id: request.id,
      ...(request.title ? { title: request.title } : {}),
      environment: request.environment,
      minApprovals: approvalCounts.get(key)!,
      project: request.project,
      features: [...features.values()],
      segments,
      approvals: (approvalsOf.get(request.id) ?? []).map((row) => ({
        createdBy: { id: row.userId, username: row.username, imageUrl: row.imageUrl },
        createdAt: row.createdAt,
      })),
      rejections: (rejectionsOf.get(request.id) ?? []).map((row) => ({
        createdBy: { id: row.userId, username: row.username, imageUrl: row.imageUrl },
        createdAt: row.createdAt,
      })),
      comments: (commentsOf.get(request.id) ?? []).map((row) => ({
        id: row.id,
        text: row.text,
        createdBy: { username: row.createdByName, imageUrl: row.createdByImageUrl },
        createdAt: row.createdAt,
      })),
      createdBy: { username: request.createdByName, imageUrl: request.createdByImageUrl },
      createdAt: request.createdAt,
      stateTimestamps: request.stateTimestamps,
      state: request.state as ChangeRequestState,
      ...(schedule ? { schedule } : {}),
    });
  }
  return views;
}

export async function changeRequestView(db: Queryable, request: RequestRow): Promise<ChangeRequestView> {
  return (await changeRequestViews(db, [request]))[0]!;
}

/** The search answer's lighter item: flag and segment names instead of the changes. */
export async function searchItems(db: Queryable, requests: readonly RequestRow[]): Promise<ChangeRequestSearchItem[]> {
  if (requests.length === 0) return [];
  const [changes, segmentNames] = await Promise.all([
    changeRequestStore.changes(
      db,
      requests.map((request) => request.id),
    ),
    segmentReadModel.names(db),
  ]);
  const changesOf = groupBy(changes, (row) => row.changeRequestId);
  return requests.map((request) => {
    const rows = changesOf.get(request.id) ?? [];
    const schedule = scheduleOf(request);
    return {
      id: request.id,
      ...(request.title ? { title: request.title } : {}),
      environment: request.environment,
      project: request.project,
      createdBy: {
        id: request.createdByUserId ?? 0,
        username: request.createdByName,
        ...(request.createdByImageUrl ? { imageUrl: request.createdByImageUrl } : {}),
      },
      createdAt: request.createdAt,
      features: [...new Set(rows.flatMap((row) => (row.feature ? [row.feature] : [])))],
      segments: [
        ...new Set(
          rows.flatMap((row) =>
            row.feature
              ? []
              : [segmentNames.get((row.payload as { id: number }).id) ?? String((row.payload as { id: number }).id)],
          ),
        ),
      ],
      state: request.state as ChangeRequestState,
      ...(schedule ? { schedule } : {}),
    };
  });
}
