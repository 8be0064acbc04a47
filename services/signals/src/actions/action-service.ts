import type { FastifyRequest } from 'fastify';
import { ApiRefused, answer, buntingClient } from '@bunting/api-client';
import type { CreateActionSet } from '@bunting/contracts';
import { NotFoundError, ValidationError, type Queryable } from '@bunting/platform';
import type { SignalChange } from '../signal-changes.ts';
import { requireEndpoint } from '../endpoints/endpoint-service.ts';
import type { SecretBox } from './secret-box.ts';
import { actionSetView, actionStore } from './action-store.ts';

export type ActionDeps = { adminApiUrl: () => string; secrets: SecretBox };

/**
 * Actions run through admin-api's public API as a service account, so each change has its normal events and
 * permission checks. The token they run with is minted on the service account by the admin who configures
 * the action set (with that admin's own credential) and kept encrypted here.
 */
async function mintActorToken(
  deps: ActionDeps,
  request: FastifyRequest,
  actorId: number,
  label: string,
): Promise<string> {
  // The request's own credential: the service account's token is made as the person setting up the action set.
  const headers: Record<string, string> = {};
  if (request.headers.authorization) headers.authorization = request.headers.authorization;
  if (request.headers.cookie) headers.cookie = request.headers.cookie;
  const api = buntingClient({ baseUrl: deps.adminApiUrl(), headers, timeoutMs: 30_000 });
  const made = await answer(
    api.POST('/api/admin/service-account/{id}/token', {
      params: { path: { id: actorId } },
      body: {
        description: `actions: ${label}`,
        expiresAt: new Date(Date.now() + 10 * 365 * 86_400_000).toISOString(),
      },
    }),
  ).catch((error: unknown) => {
    if (!(error instanceof ApiRefused)) throw error;
    if (error.status === 404) throw ValidationError.field('actorId', `service account ${actorId} does not exist`);
    throw ValidationError.field(
      'actorId',
      `a token for service account ${actorId} could not be created (${error.status})`,
    );
  });
  if (!made.secret) throw ValidationError.field('actorId', 'admin-api returned no token');
  return deps.secrets.seal(made.secret);
}

async function checkInput(db: Queryable, project: string, input: CreateActionSet) {
  await requireEndpoint(db, input.match.sourceId).catch(() => {
    throw ValidationError.field('match.sourceId', `signal endpoint ${input.match.sourceId} does not exist`);
  });
  for (const action of input.actions) {
    if (action.executionParams.project !== project) {
      throw ValidationError.field(
        'actions.executionParams.project',
        `actions of project ${project} can only change its own flags`,
      );
    }
  }
}

export async function requireActionSet(db: Queryable, project: string, id: number) {
  const row = await actionStore.get(db, id);
  if (!row || row.project !== project) throw new NotFoundError(`Could not find action set ${id} in project ${project}`);
  return row;
}

export const actionService = {
  async list(db: Queryable, project: string) {
    return { actions: (await actionStore.list(db, project)).map(actionSetView) };
  },

  async create(
    change: SignalChange,
    deps: ActionDeps,
    request: FastifyRequest,
    project: string,
    input: CreateActionSet,
  ) {
    await checkInput(change.tx, project, input);
    const actorToken = await mintActorToken(deps, request, input.actorId, input.name);
    const row = await actionStore.insert(change.tx, {
      project,
      name: input.name,
      description: input.description ?? null,
      enabled: input.enabled ?? true,
      actorId: input.actorId,
      actorToken,
      match: input.match,
      actions: sortActions(input.actions),
      createdByUserId: change.actor.createdByUserId,
    });
    change.emit({ type: 'actions-created', project, data: actionSetView(row) });
    return actionSetView(row);
  },

  async update(
    change: SignalChange,
    deps: ActionDeps,
    request: FastifyRequest,
    project: string,
    id: number,
    input: CreateActionSet,
  ) {
    const before = await requireActionSet(change.tx, project, id);
    await checkInput(change.tx, project, input);
    const actorToken =
      input.actorId === before.actorId
        ? before.actorToken
        : await mintActorToken(deps, request, input.actorId, input.name);
    const after = await actionStore.update(change.tx, id, {
      name: input.name,
      description: input.description ?? null,
      enabled: input.enabled ?? before.enabled,
      actorId: input.actorId,
      actorToken,
      match: input.match,
      actions: sortActions(input.actions),
    });
    change.emit({ type: 'actions-updated', project, data: actionSetView(after), preData: actionSetView(before) });
    return actionSetView(after);
  },

  async setEnabled(change: SignalChange, project: string, id: number, enabled: boolean) {
    const before = await requireActionSet(change.tx, project, id);
    if (before.enabled === enabled) return;
    const after = await actionStore.update(change.tx, id, { ...before, enabled });
    change.emit({ type: 'actions-updated', project, data: actionSetView(after), preData: actionSetView(before) });
  },

  async delete(change: SignalChange, project: string, id: number) {
    const before = await requireActionSet(change.tx, project, id);
    await actionStore.delete(change.tx, id);
    change.emit({ type: 'actions-deleted', project, preData: actionSetView(before) });
  },
};

function sortActions(actions: CreateActionSet['actions']) {
  return actions
    .map((action, index) => ({ ...action, sortOrder: action.sortOrder ?? index }))
    .sort((a, b) => a.sortOrder - b.sortOrder);
}
