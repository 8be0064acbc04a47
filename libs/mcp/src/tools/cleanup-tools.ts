import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { answer, type BuntingClient } from '@bunting/api-client';
import { CHANGES, Flag, Name, Project, READ_ONLY, flagParams, result } from '../tool-kit.ts';

const DAY_MS = 86_400_000;

/** Cleanup: mark a flag done, what removing it from code means, flags no SDK evaluates, and whether a flag already exists. */
export function registerCleanupTools(server: McpServer, api: BuntingClient) {
  server.registerTool(
    'mark_flag_done',
    {
      title: 'Mark a flag done',
      description:
        "Marks a flag's work complete: kept (the feature stays for everyone, optionally one variant) or discarded (the feature goes). " +
        'Then cleanup_flag says what to remove from code, and archive_flag retires it.',
      inputSchema: {
        project: Project,
        flag: Flag,
        outcome: z.enum(['kept', 'discarded']),
        variant: Name.optional().describe('With "kept": the variant that stays'),
      },
      outputSchema: z.object({ flag: z.string(), stage: z.string(), status: z.string() }).loose(),
      annotations: CHANGES,
    },
    async ({ project, flag, outcome, variant }) => {
      await answer(
        api.POST('/api/admin/projects/{projectId}/features/{featureName}/lifecycle/complete', {
          params: flagParams(project, flag),
          body: { status: outcome, ...(variant ? { statusValue: variant } : {}) },
        }),
      );
      return result({ flag, stage: 'completed', status: outcome });
    },
  );

  server.registerTool(
    'cleanup_flag',
    {
      title: 'What to remove for a finished flag',
      description:
        'For a flag marked done (mark_flag_done), what removing it from code means: which branch to keep (the "on" path if kept, the "off" ' +
        'path if discarded), the variant names whose branches go, the files and lines that use it (where a CI job ran bunting code-refs), ' +
        'the spellings of the name to search for elsewhere, and what must happen first (flags that depend on it). For a flag not marked ' +
        'done, it says so and what its environments serve now.',
      inputSchema: { project: Project, flag: Flag },
      outputSchema: z
        .object({
          flag: z.string(),
          markedDone: z.boolean(),
          keep: z.enum(['on', 'off', 'undecided']),
          searchFor: z.array(z.string()),
        })
        .loose(),
      annotations: READ_ONLY,
    },
    async ({ project, flag }) => {
      const feature = await answer(
        api.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: flagParams(project, flag) }),
      );
      const markedDone = feature.lifecycle?.stage === 'completed' && !!feature.lifecycle.status;
      const keep = !markedDone ? 'undecided' : feature.lifecycle?.status === 'kept' ? 'on' : 'off';
      const variantNames = [
        ...new Set([
          ...feature.variants.map((variant) => variant.name),
          ...feature.environments.flatMap((environment) =>
            environment.strategies.flatMap((strategy) => (strategy.variants ?? []).map((variant) => variant.name)),
          ),
        ]),
      ];
      const keptVariant = keep === 'on' ? await keptVariantOf(api, flag) : null;
      const scanned = await answer(
        api.GET('/api/admin/projects/{projectId}/features/{featureName}/code-references', {
          params: flagParams(project, flag),
        }),
      );
      const references = scanned.references.map(({ repository, branch, path, line, url }) => ({
        repository,
        branch,
        path,
        line,
        url,
      }));
      const steps = [
        ...(feature.children.length > 0
          ? [
              `First remove the dependency of ${feature.children.map((child) => `"${child}"`).join(', ')} on this flag: archiving is refused while they depend on it.`,
            ]
          : []),
        keep === 'on'
          ? 'Keep the code under the flag\'s "enabled" branch and delete the "disabled" branch.'
          : keep === 'off'
            ? 'Keep the code of the "disabled" branch and delete what the flag turned on.'
            : 'Decide first: mark the flag done (mark_flag_done) as kept or discarded.',
        ...(variantNames.length > 0
          ? [
              keptVariant
                ? `Keep variant "${keptVariant}"'s branch; delete the other variants' branches.`
                : `Delete the branches of variants ${variantNames.map((name) => `"${name}"`).join(', ')}.`,
            ]
          : []),
        ...(references.length > 0
          ? [
              `Change the ${references.length} place(s) the last scans found: ${references
                .slice(0, 20)
                .map(
                  (reference) => `${reference.path}:${reference.line} (${reference.repository}, ${reference.branch})`,
                )
                .join('; ')}${references.length > 20 ? '; and more in references' : ''}.`,
            ]
          : []),
        'Remove the flag name constant, its tests and mocks, and any OpenFeature or SDK defaults for it.',
        'Deploy, check that no SDK evaluates it any more (list_unused_flags), then archive it (archive_flag).',
      ];
      return result({
        flag: feature.name,
        project: feature.project,
        markedDone,
        keep,
        keptVariant,
        variants: variantNames,
        searchFor: spellings(feature.name),
        references,
        lastSeenAt: feature.lastSeenAt,
        dependents: feature.children,
        servesNow: feature.environments.map((environment) => ({
          environment: environment.name,
          enabled: environment.enabled,
          strategies: environment.strategies.length,
        })),
        steps,
      });
    },
  );

  server.registerTool(
    'list_unused_flags',
    {
      title: 'List flags no SDK evaluates',
      description:
        'Flags no SDK has evaluated for at least the given number of days (or never, and created at least that long ago): candidates for cleanup.',
      inputSchema: {
        days: z.number().int().min(1).max(3_650).describe('Days without an evaluation'),
        project: Project.optional(),
      },
      outputSchema: z
        .object({
          flags: z.array(
            z.object({ name: z.string(), project: z.string(), lastSeenAt: z.string().nullable() }).loose(),
          ),
        })
        .loose(),
      annotations: READ_ONLY,
    },
    async ({ days, project }) => {
      const query = {
        limit: 1000,
        sortBy: 'lastSeenAt',
        sortOrder: 'asc',
        ...(project ? { project: `IS:${project}` } : {}),
      } as const;
      const found = await answer(api.GET('/api/admin/search/features', { params: { query } }));
      const before = Date.now() - days * DAY_MS;
      const unused = found.features.filter((flag) => {
        const last = flag.lastSeenAt ?? flag.createdAt;
        return last !== null && Date.parse(last) <= before;
      });
      return result({
        flags: unused.map(({ name, project: flagProject, type, createdAt, lastSeenAt }) => ({
          name,
          project: flagProject,
          type,
          createdAt,
          lastSeenAt,
        })),
      });
    },
  );

  server.registerTool(
    'detect_flag',
    {
      title: 'Find an existing flag',
      description:
        'Before creating a flag, looks for existing ones that may already guard the change: flags whose name or description contain any ' +
        'of the given words, best match first.',
      inputSchema: {
        words: z
          .array(z.string().min(2).max(100))
          .min(1)
          .max(10)
          .describe('Words from the change, e.g. ["checkout", "paypal"]'),
        project: Project.optional(),
      },
      outputSchema: z
        .object({
          candidates: z.array(z.object({ name: z.string(), project: z.string(), matches: z.number() }).loose()),
        })
        .loose(),
      annotations: READ_ONLY,
    },
    async ({ words, project }) => {
      const found = new Map<string, { name: string; project: string; description: string | null; matches: number }>();
      for (const word of words) {
        const query = { query: word, limit: 50, ...(project ? { project: `IS:${project}` } : {}) };
        const matching = await answer(api.GET('/api/admin/search/features', { params: { query } }));
        for (const flag of matching.features) {
          const key = `${flag.project}/${flag.name}`;
          const entry = found.get(key) ?? {
            name: flag.name,
            project: flag.project,
            description: flag.description,
            matches: 0,
          };
          entry.matches += 1;
          found.set(key, entry);
        }
      }
      return result({
        candidates: [...found.values()]
          .sort((a, b) => b.matches - a.matches || a.name.localeCompare(b.name))
          .slice(0, 20),
      });
    },
  );
}

/**
 * The variant a flag was kept with: the flag's answer names only its stage and status (as Unleash's does), so it is
 * read from the newest feature-completed event, which records what mark_flag_done was told.
 */
async function keptVariantOf(api: BuntingClient, flag: string): Promise<string | null> {
  const history = await answer(api.GET('/api/admin/events/{featureName}', { params: { path: { featureName: flag } } }));
  const completed = history.events.find((event) => event.type === 'feature-completed');
  const value = (completed?.data as { statusValue?: unknown } | null | undefined)?.statusValue;
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The ways code may spell a flag name: as is, SCREAMING_SNAKE for constants, camelCase. */
export function spellings(name: string): string[] {
  const words = name.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  const snake = words.map((word) => word.toUpperCase()).join('_');
  const camel = words
    .map((word, index) => (index === 0 ? word.toLowerCase() : word[0]!.toUpperCase() + word.slice(1).toLowerCase()))
    .join('');
  return [...new Set([name, snake, camel].filter((spelling) => spelling !== ''))];
}
