import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { answer, type BuntingClient } from '@bunting/api-client';
import type { ChangeRequestView } from '@bunting/contracts';
import { CHANGES, Project, READ_ONLY, result } from '../tool-kit.ts';

const ChangeRequestId = z.number().int().min(1).describe('The change request id');
const Summary = z.object({ id: z.number(), project: z.string(), environment: z.string(), state: z.string() }).loose();

const summaryOf = (request: ChangeRequestView) => ({
  id: request.id,
  project: request.project,
  environment: request.environment,
  state: request.state,
  title: request.title ?? null,
  createdBy: request.createdBy.username,
  approvals: request.approvals.length,
  minApprovals: request.minApprovals,
  changes: request.features.flatMap((feature) =>
    feature.changes.map((change) => ({ flag: feature.name, action: change.action, payload: change.payload ?? null })),
  ),
});

/**
 * Change requests: the same rules as the API (nobody approves their own; a draft is submitted before review; an
 * approved request is applied by someone allowed to). State-changing tools in a change-request environment already
 * put their change in the caller's draft; these move it on.
 */
export function registerChangeRequestTools(server: McpServer, api: BuntingClient) {
  server.registerTool(
    'list_change_requests',
    {
      title: 'List change requests',
      description:
        'Open change requests: "mine" (my drafts and requests in a project), "to-review" (waiting for review and not made by me, in every ' +
        'project I can see) or "open" (every open request of a project).',
      inputSchema: {
        which: z.enum(['mine', 'to-review', 'open']),
        project: Project.optional().describe('Needed for "mine" and "open"'),
      },
      outputSchema: z.object({ changeRequests: z.array(Summary) }).loose(),
      annotations: READ_ONLY,
    },
    async ({ which, project }) => {
      if (which === 'to-review') {
        const me = await answer(api.GET('/api/admin/user'));
        const found = await answer(
          api.GET('/api/admin/search/change-requests', { params: { query: { state: 'IS:open', limit: 200 } } }),
        );
        return result({
          changeRequests: found.changeRequests
            .filter((request) => request.state === 'In review' && request.createdBy.id !== me.user.id)
            .map((request) => ({
              id: request.id,
              project: request.project,
              environment: request.environment,
              state: request.state,
              title: request.title ?? null,
              flags: request.features,
            })),
        });
      }
      if (!project) throw new Error(`"${which}" lists one project's change requests: give project.`);
      const params = { path: { projectId: project } };
      const requests = await answer(
        which === 'mine'
          ? api.GET('/api/admin/projects/{projectId}/change-requests/pending', { params })
          : api.GET('/api/admin/projects/{projectId}/change-requests', { params }),
      );
      const open = new Set(['Draft', 'In review', 'Approved', 'Scheduled']);
      return result({ changeRequests: requests.filter((request) => open.has(request.state)).map(summaryOf) });
    },
  );

  const move = (name: string, title: string, description: string, state: 'In review' | 'Approved' | 'Applied') =>
    server.registerTool(
      name,
      {
        title,
        description,
        inputSchema: { project: Project, id: ChangeRequestId, comment: z.string().max(2_000).optional() },
        outputSchema: Summary,
        annotations: CHANGES,
      },
      async ({ project, id, comment }) => {
        const moved = await answer(
          api.PUT('/api/admin/projects/{projectId}/change-requests/{id}/state', {
            params: { path: { projectId: project, id } },
            body: { state, ...(comment ? { comment } : {}) },
          }),
        );
        return result(summaryOf(moved));
      },
    );
  move(
    'submit_change_request',
    'Submit a change request for review',
    'Submits a draft change request: it waits for approval by someone else.',
    'In review',
  );
  move(
    'approve_change_request',
    'Approve a change request',
    'Approves a change request in review. Nobody can approve their own: the API refuses it.',
    'Approved',
  );
  move(
    'apply_change_request',
    'Apply an approved change request',
    'Applies an approved change request: its changes are made, with their events, at once.',
    'Applied',
  );
}
