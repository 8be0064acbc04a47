import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  SYSTEM_ACTOR,
  Milestone,
  MilestoneInput,
  MilestoneStrategy,
  MilestoneStrategyInput,
  NoContent,
  PathName,
  ReleaseId,
  ReleaseTemplate,
  ReleaseTemplateInput,
  ReleaseTemplateList,
} from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { requireProject } from '../projects/project-read-model.ts';
import { releaseTemplateService, requireTemplate } from './release-template-service.ts';

const TemplateParams = z.object({ templateId: ReleaseId });
const MilestoneParams = TemplateParams.extend({ milestoneId: ReleaseId });
const StrategyParams = MilestoneParams.extend({ strategyId: ReleaseId });
const ProjectParams = z.object({ projectId: PathName });

type Action = 'create' | 'update' | 'delete';
const GLOBAL: Record<Action, string> = {
  create: Permission.RELEASE_PLAN_TEMPLATE_CREATE,
  update: Permission.RELEASE_PLAN_TEMPLATE_UPDATE,
  delete: Permission.RELEASE_PLAN_TEMPLATE_DELETE,
};

/** Who may change a template: a global one's permissions instance-wide, a project's UPDATE_PROJECT_RELEASE_TEMPLATE there. */
const allowTemplate = (request: FastifyRequest, project: string | null, action: Action) =>
  project === null
    ? allow(request, GLOBAL[action])
    : allow(request, Permission.UPDATE_PROJECT_RELEASE_TEMPLATE, { project });

/** A principal's user id as templates record it (Unleash's admin-token user for tokens). */
const userIdOf = (principal: { userId?: number | null }) => principal.userId ?? SYSTEM_ACTOR.createdByUserId;

/**
 * Release templates, global (/api/admin/release-plan-templates) and per project (/api/admin/projects/:projectId/
 * release-templates, `?include=root` adding the global ones), with Unleash 7.4's milestone and milestone-strategy
 * routes. A template's own routes check the permissions of the scope it belongs to.
 */
export function releaseTemplateRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  const global = '/api/admin/release-plan-templates';
  const project = '/api/admin/projects/:projectId/release-templates';
  // Any admin-API caller may learn whether a template exists; what it may do with it is checked in its scope.
  const scopeOf = async (request: FastifyRequest, id: string) => {
    allowRead(request);
    return (await requireTemplate(db, id)).project;
  };

  app.get(
    global,
    { schema: { summary: 'List the global release templates', response: { 200: ReleaseTemplateList } } },
    async (request) => {
      allowRead(request);
      return releaseTemplateService.list(db, { project: null, withGlobal: false });
    },
  );
  app.get(
    project,
    {
      schema: {
        summary: "List a project's release templates (include=root adds the global ones)",
        params: ProjectParams,
        querystring: z.object({ include: z.enum(['root']).optional() }),
        response: { 200: ReleaseTemplateList },
      },
    },
    async (request) => {
      allowRead(request, { project: request.params.projectId });
      await requireProject(db, request.params.projectId);
      return releaseTemplateService.list(db, {
        project: request.params.projectId,
        withGlobal: request.query.include === 'root',
      });
    },
  );

  app.post(
    global,
    {
      schema: {
        summary: 'Create a global release template',
        body: ReleaseTemplateInput,
        response: { 200: ReleaseTemplate },
      },
    },
    async (request) => {
      const principal = allowTemplate(request, null, 'create');
      return changes.run(principal, (change) =>
        releaseTemplateService.create(change, null, request.body, userIdOf(principal)),
      );
    },
  );
  app.post(
    project,
    {
      schema: {
        summary: 'Create a release template of a project',
        params: ProjectParams,
        body: ReleaseTemplateInput,
        response: { 200: ReleaseTemplate },
      },
    },
    async (request) => {
      const principal = allowTemplate(request, request.params.projectId, 'create');
      await requireProject(db, request.params.projectId);
      return changes.run(principal, (change) =>
        releaseTemplateService.create(change, request.params.projectId, request.body, userIdOf(principal)),
      );
    },
  );

  // The same operations on one template, at both addresses (a project's on its own path, as Unleash's UI calls them).
  for (const [base, Params, where] of [
    [global, TemplateParams, 'a release template'],
    [project, TemplateParams.extend({ projectId: PathName }), "a project's release template"],
  ] as const) {
    app.get(
      `${base}/:templateId`,
      { schema: { summary: `Get ${where}, with its milestones`, params: Params, response: { 200: ReleaseTemplate } } },
      async (request) => {
        allowRead(request);
        const template = await releaseTemplateService.get(db, request.params.templateId);
        allowRead(request, template.project ? { project: template.project } : {});
        return template;
      },
    );
    app.put(
      `${base}/:templateId`,
      {
        schema: {
          summary: `Change ${where}: its name, description and milestones (made again from the body)`,
          params: Params,
          body: ReleaseTemplateInput,
          response: { 200: NoContent },
        },
      },
      async (request, reply) => {
        const principal = allowTemplate(request, await scopeOf(request, request.params.templateId), 'update');
        await changes.run(principal, (change) =>
          releaseTemplateService.update(change, request.params.templateId, request.body),
        );
        return reply.code(200).send();
      },
    );
    app.delete(
      `${base}/:templateId`,
      { schema: { summary: `Delete ${where}`, params: Params, response: { 200: NoContent } } },
      async (request, reply) => {
        const principal = allowTemplate(request, await scopeOf(request, request.params.templateId), 'delete');
        await changes.run(principal, (change) => releaseTemplateService.delete(change, request.params.templateId));
        return reply.code(200).send();
      },
    );
    app.post(
      `${base}/archive/:templateId`,
      {
        schema: { summary: `Archive ${where}: kept, no longer offered`, params: Params, response: { 200: NoContent } },
      },
      async (request, reply) => {
        const principal = allowTemplate(request, await scopeOf(request, request.params.templateId), 'delete');
        await changes.run(principal, (change) => releaseTemplateService.archive(change, request.params.templateId));
        return reply.code(200).send();
      },
    );
  }

  app.post(
    `${global}/:templateId/milestones`,
    {
      schema: {
        summary: 'Add a milestone to a release template',
        params: TemplateParams,
        body: MilestoneInput,
        response: { 200: Milestone },
      },
    },
    async (request) => {
      const principal = allowTemplate(request, await scopeOf(request, request.params.templateId), 'update');
      return changes.run(principal, (change) =>
        releaseTemplateService.addMilestone(change, request.params.templateId, request.body),
      );
    },
  );
  app.put(
    `${global}/:templateId/milestones/:milestoneId`,
    {
      schema: {
        summary: "Change a release template's milestone",
        params: MilestoneParams,
        body: MilestoneInput,
        response: { 200: Milestone },
      },
    },
    async (request) => {
      const principal = allowTemplate(request, await scopeOf(request, request.params.templateId), 'update');
      return changes.run(principal, (change) =>
        releaseTemplateService.updateMilestone(
          change,
          request.params.templateId,
          request.params.milestoneId,
          request.body,
        ),
      );
    },
  );
  app.delete(
    `${global}/:templateId/milestones/:milestoneId`,
    {
      schema: {
        summary: 'Remove a milestone from a release template',
        params: MilestoneParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allowTemplate(request, await scopeOf(request, request.params.templateId), 'update');
      await changes.run(principal, (change) =>
        releaseTemplateService.removeMilestone(change, request.params.templateId, request.params.milestoneId),
      );
      return reply.code(200).send();
    },
  );
  app.post(
    `${global}/:templateId/milestones/:milestoneId/strategies`,
    {
      schema: {
        summary: "Add a strategy to a release template's milestone",
        params: MilestoneParams,
        body: MilestoneStrategyInput,
        response: { 200: Milestone },
      },
    },
    async (request) => {
      const principal = allowTemplate(request, await scopeOf(request, request.params.templateId), 'update');
      return changes.run(principal, (change) =>
        releaseTemplateService.addStrategy(change, request.params.templateId, request.params.milestoneId, request.body),
      );
    },
  );
  app.put(
    `${global}/:templateId/milestones/:milestoneId/strategies/:strategyId`,
    {
      schema: {
        summary: "Change a strategy of a release template's milestone",
        params: StrategyParams,
        body: MilestoneStrategyInput,
        response: { 200: MilestoneStrategy },
      },
    },
    async (request) => {
      const principal = allowTemplate(request, await scopeOf(request, request.params.templateId), 'update');
      return changes.run(principal, (change) =>
        releaseTemplateService.updateStrategy(
          change,
          request.params.templateId,
          request.params.milestoneId,
          request.params.strategyId,
          request.body,
        ),
      );
    },
  );
  app.delete(
    `${global}/:templateId/milestones/:milestoneId/strategies/:strategyId`,
    {
      schema: {
        summary: "Remove a strategy from a release template's milestone",
        params: StrategyParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allowTemplate(request, await scopeOf(request, request.params.templateId), 'update');
      await changes.run(principal, (change) =>
        releaseTemplateService.removeStrategy(
          change,
          request.params.templateId,
          request.params.milestoneId,
          request.params.strategyId,
        ),
      );
      return reply.code(200).send();
    },
  );
}
