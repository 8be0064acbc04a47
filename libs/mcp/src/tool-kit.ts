import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiRefused, answer, type BuntingClient, type paths } from '@bunting/api-client';

// Bounds on every argument: an agent's mistake (or a 1 MB argument) is refused by the schema, before any call.
export const Name = z.string().min(1).max(255);
export const Project = Name.describe('Project id, e.g. "default"');
export const Flag = Name.describe('Flag name');
export const Environment = Name.describe('Environment name, e.g. "development" or "production"');
export const Text = z.string().max(2_000);
export const Id = z.string().min(1).max(64);

/** A tool's answer: the structured result and the same as text, for clients that only read text. */
export function result(data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data, null, 2) }], structuredContent: data };
}

/** The read-only hint, and the others for tools that change state. */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
export const CHANGES = { readOnlyHint: false, destructiveHint: false, openWorldHint: false } as const;
export const REMOVES = { readOnlyHint: false, destructiveHint: true, openWorldHint: false } as const;

/** What a change did: made at once, or proposed in a draft change request because the environment requires one. */
export const Outcome = z
  .object({
    outcome: z.enum(['changed', 'proposed']),
    changeRequest: z.object({ id: z.number(), state: z.string(), environment: z.string(), url: z.string() }).optional(),
    note: z.string().optional(),
  })
  .loose();

/** A change as a change request holds it: the body the API takes for a draft, checked against its document. */
type Proposal =
  paths['/api/admin/projects/{projectId}/environments/{environment}/change-requests']['post']['requestBody']['content']['application/json'];

const GATED = /^Change requests are on for project "([^"]+)" in the "([^"]+)" environment/;

/**
 * Makes a change through its API route; where the project environment takes changes only through change requests
 * (the API refuses it with the gate's message), the same change goes into the caller's draft change request there
 * instead, to be submitted and approved as the API's rules say.
 */
export async function changeOrPropose(
  api: BuntingClient,
  direct: () => Promise<unknown>,
  proposal: Proposal,
): Promise<Record<string, unknown>> {
  try {
    const answer = await direct();
    return {
      outcome: 'changed',
      ...(answer !== null && typeof answer === 'object' && !Array.isArray(answer) ? { result: answer } : {}),
    };
  } catch (error) {
    const gated = error instanceof ApiRefused && error.status === 403 ? GATED.exec(bodyMessage(error.body)) : null;
    if (!gated) throw error;
    const [, project, environment] = gated as unknown as [string, string, string];
    const draft = await answer(
      api.POST('/api/admin/projects/{projectId}/environments/{environment}/change-requests', {
        params: { path: { projectId: project, environment } },
        body: proposal,
      }),
    );
    return {
      outcome: 'proposed',
      changeRequest: {
        id: draft.id,
        state: draft.state,
        environment: draft.environment,
        url: `/projects/${project}/change-requests/${draft.id}`,
      },
      note: `"${environment}" takes changes through change requests: the change is in draft change request ${draft.id}. Submit it with submit_change_request; someone else approves it.`,
    };
  }
}

const bodyMessage = (body: unknown) =>
  body !== null && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string'
    ? (body as { message: string }).message
    : '';

/** A flag's path parameters, as the API's routes name them. */
export const flagParams = (projectId: string, featureName: string) => ({ path: { projectId, featureName } });
/** A flag environment's path parameters. */
export const environmentParams = (projectId: string, featureName: string, environment: string) => ({
  path: { projectId, featureName, environment },
});
