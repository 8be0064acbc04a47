import { z } from 'zod';
import {
  SYSTEM_ACTOR,
  AddReleasePlan,
  ChangeProgression,
  Milestone,
  NoContent,
  PathName,
  ReleaseId,
  ReleasePlan,
  ReleasePlanList,
  Safeguard,
  SafeguardInput,
} from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { releasePlanService } from './release-plan-service.ts';

const EnvironmentParams = z.object({ projectId: PathName, featureName: PathName, environment: PathName });
const PlanParams = EnvironmentParams.extend({ planId: ReleaseId });

/** A user id as plans record their maker (Unleash's admin-token user for tokens). */
const userIdOf = (principal: { userId?: number | null }) => principal.userId ?? SYSTEM_ACTOR.createdByUserId;

/**
 * Release plans on a flag environment (Unleash's paths, and 7.4's underscore spellings), automatic progressions
 * between their milestones, and safeguards on plans and on flag environments. Permissions follow the strategies of
 * the environment: adding a plan creates strategies there, removing one deletes them, the rest updates them.
 */
export function releasePlanRoutes(app: HttpServer, { changes, db }: Pick<AdminDeps, 'db' | 'changes'>) {
  const base = '/api/admin/projects/:projectId/features/:featureName/environments/:environment';
  const pathOf = (params: z.infer<typeof EnvironmentParams>) => ({
    project: params.projectId,
    feature: params.featureName,
    environment: params.environment,
  });
  const scopeOf = (params: z.infer<typeof EnvironmentParams>) => ({
    project: params.projectId,
    environment: params.environment,
  });

  for (const plans of ['release-plans', 'release_plans'] as const) {
    const older = plans === 'release_plans' ? ' (older spelling)' : '';
    app.get(
      `${base}/${plans}`,
      {
        schema: {
          summary: `A flag environment's release plans${older}`,
          params: EnvironmentParams,
          response: { 200: ReleasePlanList },
        },
      },
      async (request) => {
        allowRead(request, { project: request.params.projectId });
        return releasePlanService.list(db, pathOf(request.params));
      },
    );
    app.post(
      `${base}/${plans}`,
      {
        schema: {
          summary: `Apply a release template to a flag environment${older}`,
          params: EnvironmentParams,
          body: AddReleasePlan,
          response: { 200: ReleasePlan },
        },
      },
      async (request) => {
        const principal = allow(request, Permission.CREATE_FEATURE_STRATEGY, scopeOf(request.params));
        return changes.run(principal, (change) =>
          releasePlanService.add(change, pathOf(request.params), request.body.templateId, userIdOf(principal)),
        );
      },
    );
    app.delete(
      `${base}/${plans}/:planId`,
      {
        schema: {
          summary: `Remove a release plan from a flag environment${older}`,
          params: PlanParams,
          response: { 200: NoContent },
        },
      },
      async (request, reply) => {
        const principal = allow(request, Permission.DELETE_FEATURE_STRATEGY, scopeOf(request.params));
        await changes.run(principal, (change) =>
          releasePlanService.remove(change, pathOf(request.params), request.params.planId),
        );
        return reply.code(200).send();
      },
    );
    app.post(
      `${base}/${plans}/:planId/milestones/:milestoneId/start`,
      {
        schema: {
          summary: `Start a milestone of a release plan: its strategies serve the flag there${older}`,
          params: PlanParams.extend({ milestoneId: ReleaseId }),
          response: { 200: Milestone },
        },
      },
      async (request) => {
        const principal = allow(request, Permission.UPDATE_FEATURE_STRATEGY, scopeOf(request.params));
        return changes.run(principal, (change) =>
          releasePlanService.startMilestone(
            change,
            pathOf(request.params),
            request.params.planId,
            request.params.milestoneId,
          ),
        );
      },
    );
    app.put(
      `${base}/${plans}/:planId/safeguards`,
      {
        schema: {
          summary: `Set a release plan's safeguard: when its metric crosses the threshold, the plan stops progressing${older}`,
          params: PlanParams,
          body: SafeguardInput,
          response: { 200: Safeguard },
        },
      },
      async (request) => {
        const principal = allow(request, Permission.UPDATE_FEATURE_STRATEGY, scopeOf(request.params));
        return changes.run(principal, (change) =>
          releasePlanService.putPlanSafeguard(change, pathOf(request.params), request.params.planId, request.body),
        );
      },
    );
    app.delete(
      `${base}/${plans}/:planId/safeguards/:safeguardId`,
      {
        schema: {
          summary: `Remove a release plan's safeguard${older}`,
          params: PlanParams.extend({ safeguardId: ReleaseId }),
          response: { 200: NoContent },
        },
      },
      async (request, reply) => {
        const principal = allow(request, Permission.UPDATE_FEATURE_STRATEGY, scopeOf(request.params));
        await changes.run(principal, (change) =>
          releasePlanService.deletePlanSafeguard(
            change,
            pathOf(request.params),
            request.params.planId,
            request.params.safeguardId,
          ),
        );
        return reply.code(200).send();
      },
    );
  }

  const SourceParams = EnvironmentParams.extend({ sourceMilestoneId: ReleaseId });
  app.put(
    `${base}/progressions/:sourceMilestoneId`,
    {
      schema: {
        summary: 'Set when a milestone moves on to another on its own',
        params: SourceParams,
        body: ChangeProgression,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_FEATURE_STRATEGY, scopeOf(request.params));
      await changes.run(principal, (change) =>
        releasePlanService.changeProgression(
          change,
          pathOf(request.params),
          request.params.sourceMilestoneId,
          request.body,
        ),
      );
      return reply.code(200).send();
    },
  );
  app.delete(
    `${base}/progressions/:sourceMilestoneId`,
    { schema: { summary: 'Stop a milestone moving on by itself', params: SourceParams, response: { 200: NoContent } } },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_FEATURE_STRATEGY, scopeOf(request.params));
      await changes.run(principal, (change) =>
        releasePlanService.deleteProgression(change, pathOf(request.params), request.params.sourceMilestoneId),
      );
      return reply.code(200).send();
    },
  );
  app.post(
    `${base}/progressions/:planId/resume`,
    {
      schema: {
        summary: "Resume a release plan's progressions after a safeguard paused them",
        params: PlanParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_FEATURE_STRATEGY, scopeOf(request.params));
      await changes.run(principal, (change) =>
        releasePlanService.resume(change, pathOf(request.params), request.params.planId),
      );
      return reply.code(200).send();
    },
  );

  app.put(
    `${base}/safeguards`,
    {
      schema: {
        summary:
          "Set a flag environment's safeguard: when its metric crosses the threshold, the flag is turned off there",
        params: EnvironmentParams,
        body: SafeguardInput,
        response: { 200: Safeguard },
      },
    },
    async (request) => {
      const principal = allow(request, Permission.UPDATE_FEATURE_STRATEGY, scopeOf(request.params));
      return changes.run(principal, (change) =>
        releasePlanService.putEnvironmentSafeguard(change, pathOf(request.params), request.body),
      );
    },
  );
  app.delete(
    `${base}/safeguards/:safeguardId`,
    {
      schema: {
        summary: "Remove a flag environment's safeguard",
        params: EnvironmentParams.extend({ safeguardId: ReleaseId }),
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_FEATURE_STRATEGY, scopeOf(request.params));
      await changes.run(principal, (change) =>
        releasePlanService.deleteEnvironmentSafeguard(change, pathOf(request.params), request.params.safeguardId),
      );
      return reply.code(200).send();
    },
  );
}
