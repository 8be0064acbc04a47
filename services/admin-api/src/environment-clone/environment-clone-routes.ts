import { z } from 'zod';
import { CloneEnvironment, Environment, PathName } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow } from '../access/guard.ts';
import type { Change } from '../events/changes.ts';
import { environmentService, requireEnvironment } from '../environments/environment-service.ts';
import { environmentState } from '../feature-state/environment-state.ts';
import { strategyService } from '../strategies/strategy-service.ts';

/**
 * A new environment made from another: every flag's state there and its strategies (with their segments) copied,
 * for the given projects or all. It sits above the slices whose rows it copies, each copying its own.
 */
async function cloneEnvironment(
  change: Change,
  source: string,
  target: { name: string; type: string; projects?: string[] | undefined },
) {
  await requireEnvironment(change.tx, source);
  const created = await environmentService.create(change, { name: target.name, type: target.type });
  await environmentState.copyEnvironment(change.tx, source, target.name, target.projects);
  await strategyService.copyEnvironment(change.tx, source, target.name, target.projects);
  return created;
}

export function environmentCloneRoutes(app: HttpServer, { changes }: Pick<AdminDeps, 'changes'>) {
  app.post(
    '/api/admin/environments/:name/clone',
    {
      schema: {
        summary: 'Create an environment as a copy of another, strategies included',
        params: z.object({ name: PathName }),
        body: CloneEnvironment,
        response: { 201: Environment },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.CREATE_ENVIRONMENT);
      const created = await changes.run(principal, (change) =>
        cloneEnvironment(change, request.params.name, request.body),
      );
      return reply
        .code(201)
        .header('location', `/api/admin/environments/${encodeURIComponent(created.name)}`)
        .send(created);
    },
  );
}
