import type { Step } from './plan.ts';

const MARK = { create: '+', update: '~', delete: '-', archive: '-' } as const;

/** The plan as a reviewer reads it in a pull request: one line per change, grouped by project. */
export function renderPlan(steps: readonly Step[], gated: (project: string, environment: string) => boolean): string {
  if (steps.length === 0) return 'No changes: the server matches the files.\n';
  const lines: string[] = [];
  let project = '';
  for (const step of steps) {
    if (step.project !== project) {
      project = step.project;
      lines.push(`project ${project}`);
    }
    const review = step.environment !== undefined && gated(step.project, step.environment) ? ' [change request]' : '';
    lines.push(`  ${MARK[step.kind]} ${step.subject}: ${step.detail}${review}`);
  }
  const count = (kind: Step['kind']) => steps.filter((step) => step.kind === kind).length;
  const held = steps.filter((step) => step.environment !== undefined && gated(step.project, step.environment)).length;
  lines.push(
    '',
    `${count('create')} to create, ${count('update')} to change, ${count('delete')} to remove, ${count('archive')} to archive` +
      (held > 0 ? `; ${held} go into change requests for review.` : '.'),
  );
  return `${lines.join('\n')}\n`;
}

/** The plan for machines (`--json`). */
export function planJson(steps: readonly Step[], gated: (project: string, environment: string) => boolean) {
  return {
    changes: steps.map((step) => ({
      kind: step.kind,
      project: step.project,
      subject: step.subject,
      detail: step.detail,
      ...(step.environment !== undefined
        ? { environment: step.environment, changeRequest: gated(step.project, step.environment) }
        : {}),
    })),
  };
}
