import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ConstraintInput, FeatureType, VariantPayload } from '@bunting/contracts';
import { answer, type BuntingClient } from '@bunting/api-client';
import {
  CHANGES,
  Environment,
  Flag,
  Id,
  Name,
  Outcome,
  Project,
  READ_ONLY,
  REMOVES,
  Text,
  changeOrPropose,
  environmentParams,
  flagParams,
  result,
} from '../tool-kit.ts';
import { potentiallyStaleTest } from './staleness.ts';

const FlagSummary = z
  .object({
    name: z.string(),
    project: z.string(),
    type: z.string(),
    stale: z.boolean(),
    potentiallyStale: z.boolean(),
  })
  .loose();

/** Flags: list, read, create, toggle, roll out, remove a strategy, archive. */
export function registerFlagTools(server: McpServer, api: BuntingClient) {
  server.registerTool(
    'list_projects',
    {
      title: 'List projects',
      description:
        'Lists the projects the caller can see, with how many flags each has. Use a project id from here in the other tools.',
      inputSchema: {},
      outputSchema: z.object({ projects: z.array(z.object({ id: z.string(), name: z.string() }).loose()) }).loose(),
      annotations: READ_ONLY,
    },
    async () => {
      const { projects } = await answer(api.GET('/api/admin/projects'));
      return result({
        projects: projects.map(({ id, name, description, featureCount }) => ({
          id,
          name,
          description: description ?? null,
          featureCount: featureCount ?? null,
        })),
      });
    },
  );

  server.registerTool(
    'list_flags',
    {
      title: 'List and search flags',
      description:
        'Lists flags, newest first, optionally in one project and matching a search text (name, description, tags). Each flag says ' +
        "whether it is stale (marked so by a person) or potentially stale (older than its type's expected lifetime), and in which environments it is on.",
      inputSchema: {
        project: Project.optional(),
        query: z.string().max(255).optional().describe('Text the flag name, description or tags contain'),
        limit: z.number().int().min(1).max(200).optional().describe('At most this many flags (50 when left out)'),
      },
      outputSchema: z.object({ total: z.number(), flags: z.array(FlagSummary) }).loose(),
      annotations: READ_ONLY,
    },
    async ({ project, query, limit }) => {
      const search = {
        limit: limit ?? 50,
        sortBy: 'createdAt',
        sortOrder: 'desc',
        ...(project ? { project: `IS:${project}` } : {}),
        ...(query ? { query } : {}),
      } as const;
      const [found, isPotentiallyStale] = await Promise.all([
        answer(api.GET('/api/admin/search/features', { params: { query: search } })),
        potentiallyStaleTest(api),
      ]);
      return result({
        total: found.total,
        flags: found.features.map((flag) => ({
          name: flag.name,
          project: flag.project,
          type: flag.type,
          description: flag.description,
          stale: flag.stale,
          potentiallyStale: !flag.stale && isPotentiallyStale(flag),
          createdAt: flag.createdAt,
          lastSeenAt: flag.lastSeenAt,
          enabledIn: flag.environments
            .filter((environment) => environment.enabled)
            .map((environment) => environment.name),
        })),
      });
    },
  );

  server.registerTool(
    'get_flag_state',
    {
      title: "Get a flag's state",
      description:
        "A flag's full state: its type, description, staleness, lifecycle stage, dependencies and, per environment, whether it is on, " +
        'its strategies (with ids, parameters, constraints, segments and variants) and its variants.',
      inputSchema: { project: Project, flag: Flag },
      outputSchema: z
        .object({
          name: z.string(),
          project: z.string(),
          environments: z.array(z.object({ name: z.string(), enabled: z.boolean() }).loose()),
        })
        .loose(),
      annotations: READ_ONLY,
    },
    async ({ project, flag }) => {
      const [feature, isPotentiallyStale] = await Promise.all([
        answer(
          api.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: flagParams(project, flag) }),
        ),
        potentiallyStaleTest(api),
      ]);
      return result({
        name: feature.name,
        project: feature.project,
        type: feature.type,
        description: feature.description,
        stale: feature.stale,
        potentiallyStale: !feature.stale && isPotentiallyStale(feature),
        createdAt: feature.createdAt,
        lastSeenAt: feature.lastSeenAt,
        lifecycle: feature.lifecycle ?? null,
        dependencies: feature.dependencies,
        children: feature.children,
        environments: feature.environments.map((environment) => ({
          name: environment.name,
          enabled: environment.enabled,
          type: environment.type ?? null,
          strategies: environment.strategies.map(strategyView),
          variants: environment.variants ?? [],
        })),
      });
    },
  );

  server.registerTool(
    'create_flag',
    {
      title: 'Create a flag',
      description:
        "Creates a flag in a project (off in every environment). The project's naming pattern is checked; the name must be URL friendly " +
        'and not taken. Types: release (default), experiment, operational, kill-switch, permission.',
      inputSchema: {
        project: Project,
        name: Flag,
        type: FeatureType.optional(),
        description: Text.optional().describe('What the flag is for; agents should say which change it guards'),
        impressionData: z.boolean().optional(),
      },
      outputSchema: z.object({ name: z.string(), project: z.string(), type: z.string() }).loose(),
      annotations: CHANGES,
    },
    async ({ project, name, type, description, impressionData }) => {
      const created = await answer(
        api.POST('/api/admin/projects/{projectId}/features', {
          params: { path: { projectId: project } },
          body: {
            name,
            type: type ?? 'release',
            ...(description === undefined ? {} : { description }),
            ...(impressionData === undefined ? {} : { impressionData }),
          },
        }),
      );
      return result({
        name: created.name,
        project: created.project,
        type: created.type,
        description: created.description,
      });
    },
  );

  server.registerTool(
    'toggle_flag_environment',
    {
      title: 'Turn a flag on or off in an environment',
      description:
        'Turns a flag on or off in one environment. Where the environment takes changes only through change requests, the change is ' +
        'put in your draft change request there instead (outcome "proposed").',
      inputSchema: { project: Project, flag: Flag, environment: Environment, enabled: z.boolean() },
      outputSchema: Outcome,
      annotations: CHANGES,
    },
    async ({ project, flag, environment, enabled }) =>
      result(
        await changeOrPropose(
          api,
          () =>
            answer(
              enabled
                ? api.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on', {
                    params: environmentParams(project, flag, environment),
                  })
                : api.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/off', {
                    params: environmentParams(project, flag, environment),
                  }),
            ),
          { action: 'updateEnabled', feature: flag, payload: { enabled } },
        ),
      ),
  );

  server.registerTool(
    'set_flag_rollout',
    {
      title: 'Set a gradual rollout',
      description:
        'Sets a gradual rollout (flexibleRollout) in one environment: the share of users, stickiness, constraints and variants. With ' +
        'strategyId it updates that strategy; without it, it adds one. Does not turn the flag on: use toggle_flag_environment for that. ' +
        'Change-request environments get a draft instead.',
      inputSchema: {
        project: Project,
        flag: Flag,
        environment: Environment,
        percentage: z.number().int().min(0).max(100).describe('Share of users who get the flag, 0 to 100'),
        stickiness: z
          .string()
          .min(1)
          .max(100)
          .optional()
          .describe('Context field that keeps a user in or out: default, userId, sessionId or random'),
        groupId: Name.optional().describe('Hashing group; the flag name when left out'),
        constraints: z.array(ConstraintInput).max(100).optional(),
        variants: z
          .array(
            z.object({
              name: Name,
              weight: z.number().int().min(0).max(1000).optional().describe('Out of 1000; spread evenly when left out'),
              payload: VariantPayload.optional(),
            }),
          )
          .max(20)
          .optional(),
        strategyId: Id.optional().describe('The strategy to update, from get_flag_state'),
        title: z.string().max(255).optional(),
      },
      outputSchema: Outcome,
      annotations: CHANGES,
    },
    async (input) => {
      const stickiness = input.stickiness ?? 'default';
      const body = {
        name: 'flexibleRollout',
        ...(input.title === undefined ? {} : { title: input.title }),
        parameters: { rollout: String(input.percentage), stickiness, groupId: input.groupId ?? input.flag },
        constraints: input.constraints ?? [],
        variants: spreadWeights(input.variants ?? [], stickiness),
      };
      const where = environmentParams(input.project, input.flag, input.environment);
      const strategyId = input.strategyId;
      return result(
        await changeOrPropose(
          api,
          () =>
            answer(
              strategyId
                ? api.PUT(
                    '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}',
                    { params: { path: { ...where.path, strategyId } }, body },
                  )
                : api.POST(
                    '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies',
                    {
                      params: where,
                      body,
                    },
                  ),
            ),
          input.strategyId
            ? { action: 'updateStrategy', feature: input.flag, payload: { ...body, id: input.strategyId } }
            : { action: 'addStrategy', feature: input.flag, payload: body },
        ),
      );
    },
  );

  server.registerTool(
    'remove_flag_strategy',
    {
      title: 'Remove a strategy',
      description:
        "Removes one strategy (by id, from get_flag_state) from a flag's environment. Change-request environments get a draft instead.",
      inputSchema: { project: Project, flag: Flag, environment: Environment, strategyId: Id },
      outputSchema: Outcome,
      annotations: REMOVES,
    },
    async ({ project, flag, environment, strategyId }) =>
      result(
        await changeOrPropose(
          api,
          () =>
            answer(
              api.DELETE(
                '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}',
                { params: { path: { ...environmentParams(project, flag, environment).path, strategyId } } },
              ),
            ),
          { action: 'deleteStrategy', feature: flag, payload: { id: strategyId } },
        ),
      ),
  );

  server.registerTool(
    'archive_flag',
    {
      title: 'Archive a flag',
      description:
        'Archives a flag: SDKs stop getting it. Refused while other flags depend on it. Do it once no code reads the flag (see cleanup_flag). ' +
        'Where an environment takes changes through change requests, the archiving is proposed there instead.',
      inputSchema: { project: Project, flag: Flag },
      outputSchema: Outcome,
      annotations: REMOVES,
    },
    async ({ project, flag }) =>
      result(
        await changeOrPropose(
          api,
          () =>
            answer(
              api.DELETE('/api/admin/projects/{projectId}/features/{featureName}', {
                params: flagParams(project, flag),
              }),
            ),
          {
            action: 'archiveFeature',
            feature: flag,
          },
        ),
      ),
  );
}

type StrategyAnswer = {
  id: string;
  name: string;
  title?: string | null;
  disabled?: boolean | null;
  parameters?: Record<string, string>;
  constraints?: unknown[];
  variants?: unknown[];
  segments?: number[];
};

const strategyView = (strategy: StrategyAnswer) => ({
  id: strategy.id,
  name: strategy.name,
  title: strategy.title ?? null,
  disabled: strategy.disabled ?? false,
  parameters: strategy.parameters ?? {},
  constraints: strategy.constraints ?? [],
  segments: strategy.segments ?? [],
  variants: strategy.variants ?? [],
});

/** Variants without a weight share what the weighted ones leave, so the weights add up to 1000 as the API wants. */
export function spreadWeights(
  variants: readonly {
    name: string;
    weight?: number | undefined;
    payload?: z.infer<typeof VariantPayload> | undefined;
  }[],
  stickiness: string,
) {
  const fixed = variants.filter((variant) => variant.weight !== undefined);
  const open = variants.length - fixed.length;
  const left = 1000 - fixed.reduce((sum, variant) => sum + (variant.weight ?? 0), 0);
  let firstOpen = true;
  return variants.map((variant) => {
    let weight = variant.weight;
    if (weight === undefined) {
      weight = Math.floor(left / open) + (firstOpen ? left % open : 0);
      firstOpen = false;
    }
    return {
      name: variant.name,
      weight,
      weightType: variant.weight === undefined ? ('variable' as const) : ('fix' as const),
      stickiness,
      ...(variant.payload ? { payload: variant.payload } : {}),
    };
  });
}
