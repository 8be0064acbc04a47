import { z } from 'zod';
import { CreateDependency, PathName } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { actorFor, allowRead } from '../access/guard.ts';
import { dependencyService } from './dependency-service.ts';

const ChildParams = z.object({ projectId: PathName, child: PathName });

export function dependencyRoutes(app: HttpServer, { db, changes }: AdminDeps) {
  const base = '/api/admin/projects/:projectId/features/:child';

  app.post(`${base}/dependencies`, { schema: { params: ChildParams, body: CreateDependency } }, async (request, reply) => {
    const actor = actorFor(request, Permission.UPDATE_FEATURE_DEPENDENCY, { project: request.params.projectId });
    await changes.run(actor, (change) => dependencyService.add(change, request.params.projectId, request.params.child, request.body));
    return reply.code(200).send();
  });

  app.delete(`${base}/dependencies/:parent`, { schema: { params: ChildParams.extend({ parent: PathName }) } }, async (request, reply) => {
    const actor = actorFor(request, Permission.UPDATE_FEATURE_DEPENDENCY, { project: request.params.projectId });
    await changes.run(actor, (change) => dependencyService.remove(change, request.params.projectId, request.params.child, request.params.parent));
    return reply.code(200).send();
  });

  app.delete(`${base}/dependencies`, { schema: { params: ChildParams } }, async (request, reply) => {
    const actor = actorFor(request, Permission.UPDATE_FEATURE_DEPENDENCY, { project: request.params.projectId });
    await changes.run(actor, (change) => dependencyService.removeAll(change, request.params.projectId, request.params.child));
    return reply.code(200).send();
  });

  app.get(`${base}/parents`, { schema: { params: ChildParams } }, async (request) => {
    allowRead(request, { project: request.params.projectId });
    return dependencyService.parentOptions(db, request.params.projectId, request.params.child);
  });

  app.get(`${base}/dependencies`, { schema: { params: ChildParams } }, async (request) => {
    allowRead(request, { project: request.params.projectId });
    return dependencyService.parents(db, request.params.projectId, request.params.child);
  });
}
