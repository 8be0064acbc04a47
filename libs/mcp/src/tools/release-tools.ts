import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ImpactAggregation, ImpactRange, SafeguardInput } from '@bunting/contracts';
import { answer, type BuntingClient } from '@bunting/api-client';
import {
  CHANGES,
  Environment,
  Flag,
  Id,
  Outcome,
  Project,
  READ_ONLY,
  changeOrPropose,
  environmentParams,
  result,
} from '../tool-kit.ts';

const Template = z.object({ id: z.string(), name: z.string() }).loose();

/** Releases: templates, plans on a flag environment, milestones, safeguards, and the impact metrics they watch. */
export function registerReleaseTools(server: McpServer, api: BuntingClient) {
  server.registerTool(
    'list_release_templates',
    {
      title: 'List release templates',
      description:
        'The release templates a plan can be made from: each with its milestones (in order) and their strategies.',
      inputSchema: {},
      outputSchema: z.object({ templates: z.array(Template) }).loose(),
      annotations: READ_ONLY,
    },
    async () => result({ templates: await answer(api.GET('/api/admin/release-plan-templates')) }),
  );

  server.registerTool(
    'apply_release_template',
    {
      title: 'Apply a release template',
      description:
        "Puts a release plan made from a template on a flag's environment. No milestone runs until one is started (start_milestone). " +
        'Change-request environments get a draft instead.',
      inputSchema: { project: Project, flag: Flag, environment: Environment, templateId: Id },
      outputSchema: Outcome,
      annotations: CHANGES,
    },
    async ({ project, flag, environment, templateId }) =>
      result(
        await changeOrPropose(
          api,
          () =>
            answer(
              api.POST(
                '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans',
                {
                  params: environmentParams(project, flag, environment),
                  body: { templateId },
                },
              ),
            ),
          { action: 'addReleasePlan', feature: flag, payload: { templateId } },
        ),
      ),
  );

  server.registerTool(
    'get_release_plans',
    {
      title: "Show a flag environment's release plan",
      description:
        "A flag environment's release plans: milestones (which is active, when it started), automatic progressions, safeguards and whether " +
        'a safeguard has paused the plan.',
      inputSchema: { project: Project, flag: Flag, environment: Environment },
      outputSchema: z.object({ plans: z.array(z.object({ id: z.string() }).loose()) }).loose(),
      annotations: READ_ONLY,
    },
    async ({ project, flag, environment }) =>
      result({
        plans: await answer(
          api.GET('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans', {
            params: environmentParams(project, flag, environment),
          }),
        ),
      }),
  );

  server.registerTool(
    'start_milestone',
    {
      title: 'Start a milestone',
      description:
        'Starts a milestone of a release plan: its strategies now serve the flag in that environment. Change-request environments get a draft instead.',
      inputSchema: { project: Project, flag: Flag, environment: Environment, planId: Id, milestoneId: Id },
      outputSchema: Outcome,
      annotations: CHANGES,
    },
    async ({ project, flag, environment, planId, milestoneId }) =>
      result(
        await changeOrPropose(
          api,
          () =>
            answer(
              api.POST(
                '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans/{planId}/milestones/{milestoneId}/start',
                {
                  params: { path: { ...environmentParams(project, flag, environment).path, planId, milestoneId } },
                },
              ),
            ),
          { action: 'startMilestone', feature: flag, payload: { planId, milestoneId } },
        ),
      ),
  );

  server.registerTool(
    'set_release_safeguard',
    {
      title: 'Add or change a safeguard',
      description:
        "Sets a release plan's safeguard: when the impact metric crosses the threshold, the plan stops progressing (and says so in the " +
        'event log). Change-request environments get a draft instead.',
      inputSchema: { project: Project, flag: Flag, environment: Environment, planId: Id, safeguard: SafeguardInput },
      outputSchema: Outcome,
      annotations: CHANGES,
    },
    async ({ project, flag, environment, planId, safeguard }) =>
      result(
        await changeOrPropose(
          api,
          () =>
            answer(
              api.PUT(
                '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans/{planId}/safeguards',
                {
                  params: { path: { ...environmentParams(project, flag, environment).path, planId } },
                  body: safeguard,
                },
              ),
            ),
          { action: 'changeReleasePlanSafeguard', feature: flag, payload: { planId, safeguard } },
        ),
      ),
  );

  server.registerTool(
    'resume_release_plan',
    {
      title: 'Resume a paused release plan',
      description:
        "Resumes a release plan's automatic progressions after a safeguard paused them. Check the metric first (read_impact_metric).",
      inputSchema: { project: Project, flag: Flag, environment: Environment, planId: Id },
      outputSchema: Outcome,
      annotations: CHANGES,
    },
    async ({ project, flag, environment, planId }) =>
      result(
        await changeOrPropose(
          api,
          () =>
            answer(
              api.POST(
                '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/progressions/{planId}/resume',
                {
                  params: { path: { ...environmentParams(project, flag, environment).path, planId } },
                },
              ),
            ),
          { action: 'resumeMilestoneProgression', feature: flag, payload: { planId } },
        ),
      ),
  );

  server.registerTool(
    'read_impact_metric',
    {
      title: 'Read an impact metric',
      description:
        'An impact metric over a range (hour, day, week, month), aggregated (count, rps, avg, sum, p50, p95, p99), optionally filtered by ' +
        'labels: a point per step. Without metricName it lists the metrics known.',
      inputSchema: {
        metricName: z.string().min(1).max(300).optional(),
        range: ImpactRange.optional(),
        aggregationMode: ImpactAggregation.optional(),
        labels: z.record(z.string().min(1).max(100), z.array(z.string().max(200)).max(100)).optional(),
        source: z.enum(['internal', 'external']).optional(),
      },
      outputSchema: z
        .object({ metrics: z.array(z.unknown()).optional(), series: z.array(z.unknown()).optional() })
        .loose(),
      annotations: READ_ONLY,
    },
    async ({ metricName, range, aggregationMode, labels, source }) => {
      if (!metricName)
        return result({
          metrics: await answer(api.GET('/api/admin/impact-metrics/metadata')).then(listOf),
        });
      const query = {
        metricName,
        range: range ?? 'hour',
        aggregationMode: aggregationMode ?? 'count',
        source: source ?? 'internal',
        mode: 'display',
        ...(labels ? { labels: JSON.stringify(labels) } : {}),
      } as const;
      const data = await answer(api.GET('/api/admin/impact-metrics', { params: { query } }));
      return result({ start: data.start, end: data.end, step: data.step, series: data.series });
    },
  );
}

// The metadata answer is a list, or Unleash's { metrics } wrapper.
const listOf = (answer: unknown) =>
  Array.isArray(answer) ? answer : ((answer as { metrics?: unknown[] }).metrics ?? []);
