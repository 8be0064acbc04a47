import { z } from 'zod';
import {
  ChangeRequestConfigList,
  ChangeRequestAnswer,
  ChangeRequestList,
  ChangeRequestCounts,
  ScheduledChangeRequests,
  ChangeRequestReviewers,
  NoContent,
  AddChangeRequestComment,
  ChangeRequestChangeInput,
  ChangeRequestChangesInput,
  OPEN_CHANGE_REQUEST_STATES,
  PathName,
  ScheduledChangeRequestQuery,
  UpdateChangeRequestConfig,
  UpdateChangeRequestReviewers,
  UpdateChangeRequestState,
  UpdateChangeRequestTitle,
  type Principal,
} from '@bunting/contracts';
import { Permission, principalOf, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { mailReviewers } from './review-notifications.ts';
import { allow, allowRead } from '../access/guard.ts';
import { changeRequestSettingsService } from '../change-request-settings/change-request-settings-service.ts';
import { changeRequestReviewers } from './change-request-reviewers.ts';
import { changeRequestService, requireChangeRequest } from './change-request-service.ts';
import { changeRequestStore } from './change-request-store.ts';
import { changeRequestView, changeRequestViews } from './change-request-views.ts';

const ProjectParams = z.object({ projectId: PathName });
const EnvironmentParams = ProjectParams.extend({ environment: PathName });
const RequestParams = ProjectParams.extend({
  id: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1),
});
const ChangeParams = ProjectParams.extend({
  changeRequestId: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1),
  changeId: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1),
});

/** Unleash lists at most the last 300 change requests of a project. */
const PROJECT_LIST_LIMIT = 300;
const base = '/api/admin/projects/:projectId/change-requests';

/** Change requests (Unleash Enterprise's API, in the open): configuring them, proposing changes, reviewing, applying. */
export function changeRequestRoutes(
  app: HttpServer,
  { db, changes, mail, config }: Pick<AdminDeps, 'db' | 'changes' | 'mail' | 'config'>,
) {
  const writer = (request: Parameters<typeof principalOf>[0], project: string): Principal =>
    allow(request, Permission.READ, { project });

  app.get(
    `${base}/config`,
    {
      schema: {
        summary: 'Which environments of a project require change requests, and how many approvals',
        params: ProjectParams,
        response: { 200: ChangeRequestConfigList },
      },
    },
    async (request) => {
      allowRead(request, { project: request.params.projectId });
      return changeRequestSettingsService.list(db, request.params.projectId);
    },
  );

  app.put(
    '/api/admin/projects/:projectId/environments/:environment/change-requests/config',
    {
      schema: {
        summary: 'Require change requests in a project environment, or stop requiring them',
        params: EnvironmentParams,
        body: UpdateChangeRequestConfig,
        // 204 as Unleash's server answers (its Terraform provider accepts only 204 here); its published document says 200.
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { projectId, environment } = request.params;
      const principal = allow(request, Permission.UPDATE_PROJECT, { project: projectId });
      await changes.run(principal, (change) =>
        changeRequestSettingsService.update(change, projectId, environment, request.body),
      );
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/admin/projects/:projectId/environments/:environment/change-requests',
    {
      schema: {
        summary: "Add changes to the caller's draft change request",
        params: EnvironmentParams,
        body: ChangeRequestChangesInput,
        response: { 200: ChangeRequestAnswer },
      },
    },
    async (request) => {
      const { projectId, environment } = request.params;
      const principal = writer(request, projectId);
      const inputs = Array.isArray(request.body) ? request.body : [request.body];
      const id = await changes.run(principal, (change) =>
        changeRequestService.propose(change, principal, { project: projectId, environment }, inputs),
      );
      return changeRequestView(db, await requireChangeRequest(db, projectId, id));
    },
  );

  app.get(
    base,
    {
      schema: {
        summary: "List a project's change requests",
        params: ProjectParams,
        response: { 200: ChangeRequestList },
      },
    },
    async (request) => {
      allowRead(request, { project: request.params.projectId });
      return changeRequestViews(
        db,
        await changeRequestStore.list(db, { project: request.params.projectId, limit: PROJECT_LIST_LIMIT }),
      );
    },
  );

  app.get(
    `${base}/count`,
    {
      schema: {
        summary: "How many of a project's change requests are in each state",
        params: ProjectParams,
        response: { 200: ChangeRequestCounts },
      },
    },
    async (request) => {
      allowRead(request, { project: request.params.projectId });
      const counts = new Map(
        (await changeRequestStore.countByState(db, request.params.projectId)).map((row) => [row.state, row.count]),
      );
      const count = (state: string) => counts.get(state) ?? 0;
      return {
        total: [...counts.values()].reduce((sum, value) => sum + value, 0),
        applied: count('Applied'),
        rejected: count('Rejected'),
        reviewRequired: count('In review'),
        approved: count('Approved'),
        scheduled: count('Scheduled'),
      };
    },
  );

  // The caller's own open change requests in the project (Unleash: "pending for the current user"; /open is its old name).
  for (const [path, summary] of [
    ['pending', "The caller's open change requests in a project"],
    ['open', "The caller's open change requests in a project (older name)"],
  ] as const) {
    app.get(
      `${base}/${path}`,
      { schema: { summary, params: ProjectParams, response: { 200: ChangeRequestList } } },
      async (request) => {
        const principal = allowRead(request, { project: request.params.projectId });
        const mine =
          principal.kind === 'api-token' || principal.userId === null
            ? (
                await changeRequestStore.list(db, {
                  project: request.params.projectId,
                  states: OPEN_CHANGE_REQUEST_STATES,
                })
              ).filter((row) => row.createdByUserId === null && row.createdByName === principal.name)
            : await changeRequestStore.list(db, {
                project: request.params.projectId,
                states: OPEN_CHANGE_REQUEST_STATES,
                createdByUserId: principal.userId,
              });
        return changeRequestViews(db, mine);
      },
    );
  }

  app.get(
    `${base}/pending/:featureName`,
    {
      schema: {
        summary: 'Open change requests that touch a flag',
        params: ProjectParams.extend({ featureName: PathName }),
        response: { 200: ChangeRequestList },
      },
    },
    async (request) => {
      allowRead(request, { project: request.params.projectId });
      return changeRequestViews(
        db,
        await changeRequestStore.list(db, {
          project: request.params.projectId,
          states: ['Draft', 'In review', 'Approved'],
          feature: request.params.featureName,
        }),
      );
    },
  );

  app.get(
    `${base}/scheduled`,
    {
      schema: {
        summary: 'Scheduled change requests that touch given flags or strategies',
        params: ProjectParams,
        querystring: ScheduledChangeRequestQuery,
        response: { 200: ScheduledChangeRequests },
      },
    },
    async (request) => {
      allowRead(request, { project: request.params.projectId });
      const rows = await changeRequestStore.scheduledTouching(db, request.params.projectId, request.query);
      return rows.map((row) => ({
        id: row.id,
        environment: row.environment,
        ...(row.title ? { title: row.title } : {}),
      }));
    },
  );

  app.get(
    `${base}/available-reviewers/:environment`,
    {
      schema: {
        summary: 'Who may approve change requests in a project environment',
        params: EnvironmentParams,
        response: { 200: ChangeRequestReviewers },
      },
    },
    async (request) => {
      allowRead(request, { project: request.params.projectId });
      return {
        reviewers: await changeRequestReviewers.available(db, {
          project: request.params.projectId,
          environment: request.params.environment,
        }),
      };
    },
  );

  app.get(
    `${base}/:id`,
    {
      schema: {
        summary: 'Get one change request with its changes, approvals and comments',
        params: RequestParams,
        response: { 200: ChangeRequestAnswer },
      },
    },
    async (request) => {
      allowRead(request, { project: request.params.projectId });
      return changeRequestView(db, await requireChangeRequest(db, request.params.projectId, request.params.id));
    },
  );

  app.delete(
    `${base}/:id`,
    { schema: { summary: 'Discard a draft change request', params: RequestParams, response: { 200: NoContent } } },
    async (request, reply) => {
      const principal = writer(request, request.params.projectId);
      await changes.run(principal, (change) =>
        changeRequestService.discard(change, principal, request.params.projectId, request.params.id),
      );
      return reply.code(200).send();
    },
  );

  app.put(
    `${base}/:changeRequestId/changes/:changeId`,
    {
      schema: {
        summary: 'Edit one change of a change request',
        params: ChangeParams,
        body: ChangeRequestChangeInput,
        response: { 200: ChangeRequestAnswer },
      },
    },
    async (request) => {
      const { projectId, changeRequestId, changeId } = request.params;
      const principal = writer(request, projectId);
      await changes.run(principal, (change) =>
        changeRequestService.editChange(change, principal, projectId, changeRequestId, changeId, request.body),
      );
      return changeRequestView(db, await requireChangeRequest(db, projectId, changeRequestId));
    },
  );

  app.delete(
    `${base}/:changeRequestId/changes/:changeId`,
    {
      schema: { summary: 'Drop one change from a change request', params: ChangeParams, response: { 200: NoContent } },
    },
    async (request, reply) => {
      const { projectId, changeRequestId, changeId } = request.params;
      const principal = writer(request, projectId);
      await changes.run(principal, (change) =>
        changeRequestService.discardChange(change, principal, projectId, changeRequestId, changeId),
      );
      return reply.code(200).send();
    },
  );

  app.put(
    `${base}/:id/state`,
    {
      schema: {
        summary: 'Move a change request on: review, approve, reject, apply, schedule or cancel',
        params: RequestParams,
        body: UpdateChangeRequestState,
        response: { 200: ChangeRequestAnswer },
      },
    },
    async (request) => {
      const { projectId, id } = request.params;
      const principal = writer(request, projectId);
      await changes.run(principal, async (change) => {
        await changeRequestService.setState(change, principal, projectId, id, request.body);
        if (request.body.state === 'In review')
          await mailReviewers(change, mail, await requireChangeRequest(change.tx, projectId, id), config.baseUrl);
      });
      return changeRequestView(db, await requireChangeRequest(db, projectId, id));
    },
  );

  app.put(
    `${base}/:id/title`,
    {
      schema: {
        summary: 'Give a change request a title',
        params: RequestParams,
        body: UpdateChangeRequestTitle,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const principal = writer(request, request.params.projectId);
      await changes.run(principal, (change) =>
        changeRequestService.setTitle(
          change,
          principal,
          request.params.projectId,
          request.params.id,
          request.body.title,
        ),
      );
      return reply.code(204).send();
    },
  );

  app.post(
    `${base}/:id/comments`,
    {
      schema: {
        summary: 'Comment on a change request',
        params: RequestParams,
        body: AddChangeRequestComment,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const principal = writer(request, request.params.projectId);
      await changes.run(principal, (change) =>
        changeRequestService.comment(change, principal, request.params.projectId, request.params.id, request.body.text),
      );
      return reply.code(204).send();
    },
  );

  app.get(
    `${base}/:id/approvers`,
    {
      schema: {
        summary: 'Who is asked to review a change request',
        params: RequestParams,
        response: { 200: ChangeRequestReviewers },
      },
    },
    async (request) => {
      allowRead(request, { project: request.params.projectId });
      await requireChangeRequest(db, request.params.projectId, request.params.id);
      return { reviewers: await changeRequestReviewers.requested(db, request.params.id) };
    },
  );

  app.put(
    `${base}/:id/approvers`,
    {
      schema: {
        summary: 'Choose who is asked to review a change request',
        params: RequestParams,
        body: UpdateChangeRequestReviewers,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const principal = writer(request, request.params.projectId);
      await changes.run(principal, (change) =>
        changeRequestService.setReviewers(
          change,
          principal,
          request.params.projectId,
          request.params.id,
          request.body.reviewers,
          (ids) => changeRequestReviewers.existing(change.tx, ids),
        ),
      );
      return reply.code(204).send();
    },
  );
}
