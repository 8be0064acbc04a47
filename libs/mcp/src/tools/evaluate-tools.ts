import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { answer, type BuntingClient } from '@bunting/api-client';
import { SdkContext, type ExplainedFeature } from '@bunting/contracts';
import { Environment, Flag, Project, READ_ONLY, result } from '../tool-kit.ts';

/** Evaluate: what a context gets, through the playground, with the reason in words. */
export function registerEvaluateTools(server: McpServer, api: BuntingClient) {
  server.registerTool(
    'evaluate_flags',
    {
      title: 'Evaluate flags for a context',
      description:
        'What a given context (user id, session, properties...) gets in an environment: for one flag or every flag of a project (or all ' +
        'projects), whether it is on, which variant, and why (which strategy matched, or which constraint or segment did not).',
      inputSchema: {
        environment: Environment,
        context: SdkContext.partial({ appName: true }).describe('The SDK context; appName defaults to "mcp"'),
        project: Project.optional(),
        flag: Flag.optional(),
      },
      outputSchema: z
        .object({
          flags: z.array(
            z.object({ name: z.string(), enabled: z.boolean(), variant: z.string(), why: z.string() }).loose(),
          ),
        })
        .loose(),
      annotations: READ_ONLY,
    },
    async ({ environment, context, project, flag }) => {
      const evaluated = await answer(
        api.POST('/api/admin/playground', {
          body: {
            environment,
            projects: project ? [project] : '*',
            // The document's context mixes named fields with string-valued extras, which the generated type cannot
            // say beside `properties`: the schema above has checked it.
            context: { appName: 'mcp', ...context } as never,
          },
        }),
      );
      const features = flag ? evaluated.features.filter((feature) => feature.name === flag) : evaluated.features;
      if (flag && features.length === 0)
        throw new Error(`No flag "${flag}" in ${project ? `project "${project}"` : 'any project you can read'}.`);
      return result({
        flags: features.map((feature) => ({
          name: feature.name,
          project: feature.projectId,
          enabled: feature.isEnabled,
          variant: feature.variant.enabled ? feature.variant.name : 'disabled',
          ...(feature.variant.payload ? { payload: feature.variant.payload } : {}),
          why: reasonOf(feature, environment),
        })),
      });
    },
  );
}

/** The reason in one sentence, from the playground's explanation. */
export function reasonOf(feature: ExplainedFeature, environment: string): string {
  if (!feature.isEnabledInCurrentEnvironment) return `It is off in "${environment}".`;
  if (feature.hasUnsatisfiedDependency) return 'A flag it depends on does not answer as required.';
  const strategies = feature.strategies.data.filter((strategy) => !strategy.disabled);
  if (strategies.length === 0) return `It is on in "${environment}" but has no strategy there, so nobody gets it.`;
  const matched = strategies.find((strategy) => strategy.result.enabled === true);
  if (matched)
    return `Strategy ${matched.title ? `"${matched.title}" (${matched.name})` : matched.name} [${matched.id}] matched.`;
  const reasons = strategies.map((strategy) => {
    const constraint = strategy.constraints.find((entry) => !entry.result);
    if (constraint)
      return `${strategy.name} [${strategy.id}]: constraint ${constraint.contextName} ${constraint.operator} failed`;
    const segment = strategy.segments.find((entry) => !entry.result);
    if (segment) return `${strategy.name} [${strategy.id}]: segment "${segment.name}" did not match`;
    if (strategy.result.evaluationStatus === 'incomplete')
      return `${strategy.name} [${strategy.id}]: cannot be decided here (a custom strategy)`;
    return `${strategy.name} [${strategy.id}]: the context is outside its rollout`;
  });
  return `No strategy matched: ${reasons.join('; ')}.`;
}
