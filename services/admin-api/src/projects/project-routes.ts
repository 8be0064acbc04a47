import { z } from 'zod';
import { CreateFeatureStrategy, CreateProject, PathName, Project, ProjectEnvironmentInput, UpdateProject } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { actorFor, allowRead } from '../access/guard.ts';
import { normalizeStrategy } from '../strategies/strategy-rules.ts';
import { requireProjectEnvironment } from '../strategies/strategy-service.ts';
import { projectService, requireProject } from './project-service.ts';
import { projectStore } from './project-store.ts';

const ProjectParams = z.object({ projectId: PathName });

export function projectRoutes(app: HttpServer, { db, changes }: AdminDeps) {
  app.get('/api/admin/projects', async (request) => {
    const principal = allowRead(request);
    return projectService.list(db, principal.key);
  });

  app.post('/api/admin/projects', { schema: { body: CreateProject, response: { 201: Project } } }, async (request, reply) => {
    const actor = actorFor(request, Permission.CREATE_PROJECT);
    const created = await changes.run(actor, (change) => projectService.create(change, request.body));
    return reply.code(201).header('location', `/api/admin/projects/${encodeURIComponent(created.id)}`).send(created);
  });

  app.post('/api/admin/projects/validate', { schema: { body: z.object({ id: CreateProject.shape.id }) } }, async (request, reply) => {
    allowRead(request);
    await projectService.validateId(db, request.body.id);
    return reply.code(200).send();
  });

  app.get('/api/admin/projects/:projectId', { schema: { params: ProjectParams, response: { 200: Project } } }, async (request) => {
    const principal = allowRead(request, { project: request.params.projectId });
    return projectService.get(db, request.params.projectId, principal.key);
  });

  app.get('/api/admin/projects/:projectId/overview', { schema: { params: ProjectParams, response: { 200: Project } } }, async (request) => {
    const principal = allowRead(request, { project: request.params.projectId });
    return projectService.get(db, request.params.projectId, principal.key);
  });

  for (const path of ['/api/admin/projects/:projectId', '/api/admin/projects/:projectId/settings']) {
    app.put(path, { schema: { params: ProjectParams, body: UpdateProject, response: { 200: Project } } }, async (request) => {
      const actor = actorFor(request, Permission.UPDATE_PROJECT, { project: request.params.projectId });
      return changes.run(actor, (change) => projectService.update(change, request.params.projectId, request.body));
    });
  }

  app.delete('/api/admin/projects/:projectId', { schema: { params: ProjectParams } }, async (request, reply) => {
    const actor = actorFor(request, Permission.DELETE_PROJECT, { project: request.params.projectId });
    await changes.run(actor, (change) => projectService.delete(change, request.params.projectId));
    return reply.code(200).send();
  });

  for (const [action, archived] of [['archive', true], ['revive', false]] as const) {
    app.post(`/api/admin/projects/${action}/:projectId`, { schema: { params: ProjectParams } }, async (request, reply) => {
      const actor = actorFor(request, Permission.DELETE_PROJECT, { project: request.params.projectId });
      await changes.run(actor, (change) => projectService.setArchived(change, request.params.projectId, archived));
      return reply.code(200).send();
    });
  }

  app.post('/api/admin/projects/:projectId/environments', { schema: { params: ProjectParams, body: ProjectEnvironmentInput } }, async (request, reply) => {
    const actor = actorFor(request, Permission.UPDATE_PROJECT, { project: request.params.projectId });
    await changes.run(actor, (change) => projectService.addEnvironment(change, request.params.projectId, request.body.environment));
    return reply.code(200).send();
  });

  app.delete('/api/admin/projects/:projectId/environments/:environment', {
    schema: { params: ProjectParams.extend({ environment: PathName }) },
  }, async (request, reply) => {
    const actor = actorFor(request, Permission.UPDATE_PROJECT, { project: request.params.projectId });
    await changes.run(actor, (change) => projectService.removeEnvironment(change, request.params.projectId, request.params.environment));
    return reply.code(200).send();
  });

  app.post('/api/admin/projects/:projectId/environments/:environment/default-strategy', {
    schema: { params: ProjectParams.extend({ environment: PathName }), body: CreateFeatureStrategy },
  }, async (request) => {
    const { projectId, environment } = request.params;
    const actor = actorFor(request, Permission.UPDATE_PROJECT, { project: projectId, environment });
    return changes.run(actor, async (change) => {
      const project = await requireProject(change.tx, projectId);
      await requireProjectEnvironment(change.tx, projectId, environment);
      // Stored with an empty groupId: each flag that receives it gets its own name as the group.
      const normalized = await normalizeStrategy(change.tx, request.body, { featureName: '', defaultStickiness: project.defaultStickiness, sortOrder: 0 });
      const stored = { name: normalized.name, title: normalized.title, disabled: normalized.disabled, constraints: normalized.constraints,
        parameters: normalized.parameters, variants: normalized.variants, segments: normalized.segments };
      await projectStore.setDefaultStrategy(change.tx, projectId, environment, stored);
      change.emit({ type: 'default-strategy-updated', project: projectId, environment, data: stored });
      return stored;
    });
  });

  for (const [method, favorite] of [['post', true], ['delete', false]] as const) {
    app[method]('/api/admin/projects/:projectId/favorites', { schema: { params: ProjectParams } }, async (request, reply) => {
      const principal = allowRead(request, { project: request.params.projectId });
      const actor = actorFor(request, Permission.READ);
      await changes.run(actor, (change) => projectService.setFavorite(change, principal.key, request.params.projectId, favorite));
      return reply.code(200).send();
    });
  }
}
