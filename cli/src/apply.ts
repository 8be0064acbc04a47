import type { Api } from './api.ts';
import type { RunContext, Step } from './plan.ts';
import { readSegments } from './server-state.ts';

export interface ChangeRequestOpened {
  readonly project: string;
  readonly environment: string;
  readonly id: number;
  readonly url: string;
  readonly changes: number;
}

export interface ApplyResult {
  readonly applied: number;
  readonly changeRequests: ChangeRequestOpened[];
}

/**
 * Runs the plan in order. A step in an environment that requires change requests is never made directly: the steps
 * of each such environment go into one change request, submitted for review, whose address is returned.
 */
export async function applyPlan(
  api: Api,
  steps: readonly Step[],
  gated: (project: string, environment: string) => boolean,
): Promise<ApplyResult> {
  let segments = await readSegments(api);
  const context: RunContext = {
    api,
    segmentId(name) {
      const segment = segments.get(name);
      if (!segment) throw new Error(`segment ${name} does not exist on the server`);
      return segment.id;
    },
  };
  const held = new Map<string, { project: string; environment: string; steps: Step[] }>();
  let applied = 0;
  for (const step of steps) {
    if (step.environment !== undefined && step.change && gated(step.project, step.environment)) {
      const key = `${step.project}\u0000${step.environment}`;
      const group = held.get(key) ?? { project: step.project, environment: step.environment, steps: [] };
      group.steps.push(step);
      held.set(key, group);
      continue;
    }
    await step.run(context);
    applied++;
    // A segment made now is referred to by id in the steps after it.
    if (step.subject.startsWith('segment ')) segments = await readSegments(api);
  }
  const changeRequests: ChangeRequestOpened[] = [];
  for (const { project, environment, steps: grouped } of held.values()) {
    const base = `/api/admin/projects/${encodeURIComponent(project)}`;
    const draft = await api.send<{ id: number }>(
      'POST',
      `${base}/environments/${encodeURIComponent(environment)}/change-requests`,
      grouped.map((step) => step.change!(context)),
    );
    await api.send('PUT', `${base}/change-requests/${draft.id}/state`, { state: 'In review' });
    changeRequests.push({
      project,
      environment,
      id: draft.id,
      url: `${api.url}/projects/${encodeURIComponent(project)}/change-requests/${draft.id}`,
      changes: grouped.length,
    });
  }
  return { applied, changeRequests };
}
