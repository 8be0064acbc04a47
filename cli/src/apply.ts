import type { Api } from './api.ts';
import type { RunContext, Step } from './plan.ts';
import { mapLimited } from './concurrency.ts';
import { readSegments } from './server-state.ts';

/** Flags changed at once: a large first apply is request-bound, and the server takes several in parallel. */
const WRITE_CONCURRENCY = 8;

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
 * Runs the plan phase by phase (segments, flags, dependencies, environments, archiving). A step in an environment that requires change requests is never made directly: the steps
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
  const direct: Step[] = [];
  for (const step of steps) {
    if (step.environment !== undefined && step.change && gated(step.project, step.environment)) {
      const key = `${step.project}\u0000${step.environment}`;
      const group = held.get(key) ?? { project: step.project, environment: step.environment, steps: [] };
      group.steps.push(step);
      held.set(key, group);
    } else direct.push(step);
  }
  let applied = 0;
  for (const phase of [0, 1, 2, 3, 4] as const) {
    // Within a phase, flags go side by side; one flag's steps stay in the plan's order.
    const byFlag = new Map<string, Step[]>();
    for (const step of direct.filter((item) => item.phase === phase)) {
      const key = step.flag === undefined ? step.subject : `${step.project}\u0000${step.flag}`;
      byFlag.set(key, [...(byFlag.get(key) ?? []), step]);
    }
    await mapLimited([...byFlag.values()], phase === 0 ? 1 : WRITE_CONCURRENCY, async (group) => {
      for (const step of group) {
        await step.run(context);
        applied++;
      }
    });
    // Segments made now are referred to by id in the steps after them.
    if (phase === 0 && byFlag.size > 0) segments = await readSegments(api);
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
