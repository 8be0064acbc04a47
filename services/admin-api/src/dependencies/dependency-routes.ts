import { z } from 'zod';
import { CreateDependency, PathName } from '@bunting/contracts';
import { Permission, sql, type HttpServer } from '@bunting/platform';
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

  const ProjectParams = z.object({ projectId: PathName });
  const Name = z.object({ name: z.string() });

  // Whether any flag of the project depends on another (the UI shows dependency columns only then).
  app.get('/api/admin/projects/:projectId/dependencies', { schema: { params: ProjectParams } }, async (request) => {
    allowRead(request, { project: request.params.projectId });
    return db.exists(sql.unsafe`select 1 from admin.dependencies d join admin.features f on f.name = d.child
      where f.project_id = ${request.params.projectId} and f.archived_at is null`);
  });

  // The variants a child may require of a parent: every variant name the parent has in any environment or strategy.
  app.get('/api/admin/projects/:projectId/features/:parent/parent-variants', { schema: { params: ProjectParams.extend({ parent: PathName }) } }, async (request) => {
    allowRead(request, { project: request.params.projectId });
    const { parent } = request.params;
    return db.anyFirst(sql.type(Name)`
      select distinct v ->> 'name' as name from (
        select jsonb_array_elements(variants) as v from admin.feature_environments where feature_name = ${parent}
        union all
        select jsonb_array_elements(variants) from admin.feature_strategies where feature_name = ${parent}
      ) variants where v ->> 'name' is not null order by 1`);
  });

  // Before archiving flags: which of them are parents of flags not being archived, and whether any link would go.
  app.post('/api/admin/projects/:projectId/archive/validate', {
    schema: { params: ProjectParams, body: z.object({ features: z.array(PathName).max(10_000) }) },
  }, async (request) => {
    allowRead(request, { project: request.params.projectId });
    const names = request.body.features;
    const [parentsWithChildFeatures, hasDeletedDependencies] = await Promise.all([
      db.anyFirst(sql.type(Name)`select distinct parent as name from admin.dependencies
        where parent = any(${sql.array(names, 'text')}) and not child = any(${sql.array(names, 'text')}) order by 1`),
      db.exists(sql.unsafe`select 1 from admin.dependencies
        where parent = any(${sql.array(names, 'text')}) or child = any(${sql.array(names, 'text')})`),
    ]);
    return { parentsWithChildFeatures, hasDeletedDependencies };
  });
}
