import { z } from 'zod';
import {
  FeatureNameList,
  FeatureDependencies,
  ProjectHasDependencies,
  ArchiveValidation,
  NoContent,
  CreateDependency,
  PathName,
} from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { dependencyService } from './dependency-service.ts';

const ChildParams = z.object({ projectId: PathName, child: PathName });

export function dependencyRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  const base = '/api/admin/projects/:projectId/features/:child';

  app.post(
    `${base}/dependencies`,
    {
      schema: {
        summary: 'Make a flag depend on a parent flag',
        params: ChildParams,
        body: CreateDependency,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_FEATURE_DEPENDENCY, { project: request.params.projectId });
      await changes.run(principal, (change) =>
        dependencyService.add(change, request.params.projectId, request.params.child, request.body),
      );
      return reply.code(200).send();
    },
  );

  app.delete(
    `${base}/dependencies/:parent`,
    {
      schema: {
        summary: "Remove a flag's dependency on one parent",
        params: ChildParams.extend({ parent: PathName }),
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_FEATURE_DEPENDENCY, { project: request.params.projectId });
      await changes.run(principal, (change) =>
        dependencyService.remove(change, request.params.projectId, request.params.child, request.params.parent),
      );
      return reply.code(200).send();
    },
  );

  app.delete(
    `${base}/dependencies`,
    { schema: { summary: "Remove all of a flag's dependencies", params: ChildParams, response: { 200: NoContent } } },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_FEATURE_DEPENDENCY, { project: request.params.projectId });
      await changes.run(principal, (change) =>
        dependencyService.removeAll(change, request.params.projectId, request.params.child),
      );
      return reply.code(200).send();
    },
  );

  app.get(
    `${base}/parents`,
    { schema: { summary: 'The flags a flag may depend on', params: ChildParams, response: { 200: FeatureNameList } } },
    async (request) => {
      allowRead(request, { project: request.params.projectId });
      return dependencyService.parentOptions(db, request.params.projectId, request.params.child);
    },
  );

  app.get(
    `${base}/dependencies`,
    { schema: { summary: "List a flag's dependencies", params: ChildParams, response: { 200: FeatureDependencies } } },
    async (request) => {
      allowRead(request, { project: request.params.projectId });
      return dependencyService.parents(db, request.params.projectId, request.params.child);
    },
  );

  const ProjectParams = z.object({ projectId: PathName });

  // Whether any flag of the project depends on another (the UI shows dependency columns only then).
  app.get(
    '/api/admin/projects/:projectId/dependencies',
    {
      schema: {
        summary: 'Whether any flag in a project depends on another',
        params: ProjectParams,
        response: { 200: ProjectHasDependencies },
      },
    },
    async (request) => {
      allowRead(request, { project: request.params.projectId });
      return dependencyService.projectHasDependencies(db, request.params.projectId);
    },
  );

  // The variants a child may require of a parent: every variant name the parent has in any environment or strategy.
  app.get(
    '/api/admin/projects/:projectId/features/:parent/parent-variants',
    {
      schema: {
        summary: 'The variants a child flag may require of its parent',
        params: ProjectParams.extend({ parent: PathName }),
        response: { 200: FeatureNameList },
      },
    },
    async (request) => {
      allowRead(request, { project: request.params.projectId });
      return dependencyService.parentVariants(db, request.params.parent);
    },
  );

  // Before archiving flags: which of them are parents of flags not being archived, and whether any link would go.
  app.post(
    '/api/admin/projects/:projectId/archive/validate',
    {
      schema: {
        summary: 'Check whether archiving flags would leave dependent flags behind',
        params: ProjectParams,
        body: z.object({ features: z.array(PathName).max(10_000) }),
        response: { 200: ArchiveValidation },
      },
    },
    async (request) => {
      allowRead(request, { project: request.params.projectId });
      return dependencyService.archiveImpact(db, request.body.features);
    },
  );
}
