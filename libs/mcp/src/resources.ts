import { z } from 'zod';
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { answer, type BuntingClient } from '@bunting/api-client';

/** Resources: a flag's history (its events, newest first) and its current state, each readable by URI. */
export function registerResources(server: McpServer, api: BuntingClient) {
  server.registerResource(
    'flag-history',
    new ResourceTemplate('bunting://flags/{flag}/history', { list: undefined }),
    {
      title: "A flag's history",
      description:
        'Every change to a flag, newest first: who made it, when, what changed (and, for changes made by an agent, its MCP client).',
      mimeType: 'application/json',
    },
    async (uri, variables) => {
      const flag = single(variables.flag);
      const history = await answer(
        api.GET('/api/admin/events/{featureName}', { params: { path: { featureName: flag } } }),
      );
      return {
        contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(history.events, null, 2) }],
      };
    },
  );

  server.registerResource(
    'flag-state',
    new ResourceTemplate('bunting://projects/{project}/flags/{flag}', { list: undefined }),
    {
      title: "A flag's state",
      description: 'A flag as the admin API answers it: environments, strategies, variants, dependencies, lifecycle.',
      mimeType: 'application/json',
    },
    async (uri, variables) => {
      const feature = await answer(
        api.GET('/api/admin/projects/{projectId}/features/{featureName}', {
          params: { path: { projectId: single(variables.project), featureName: single(variables.flag) } },
        }),
      );
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(feature, null, 2) }] };
    },
  );
}

/** Prompts: the two workflows agents are asked for most, as step lists that name the tools. */
export function registerPrompts(server: McpServer) {
  server.registerPrompt(
    'roll_out_change',
    {
      title: 'Ship a change behind a flag',
      description:
        'Steps to put a code change behind a new flag and roll it out gradually, with a safeguard where a release template exists.',
      argsSchema: {
        change: z.string().min(1).max(2_000).describe('What the change does'),
        project: z.string().min(1).max(255).describe('Project id'),
      },
    },
    ({ change, project }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: [
              `Ship this change behind a feature flag in Bunting project "${project}": ${change}`,
              '1. evaluate_change on the change; if no flag is needed, say why and stop.',
              '2. detect_flag with words from the change; reuse a flag that already guards it.',
              '3. create_flag with the suggested type and a name the project accepts.',
              '4. wrap_change for the SDK the code uses, and put the new code under the flag.',
              '5. In development: set_flag_rollout at 100, toggle_flag_environment on.',
              '6. In production: list_release_templates; if one fits, apply_release_template and start_milestone, and set_release_safeguard on an error metric; otherwise set_flag_rollout at a low percentage and toggle on.',
              '7. If a tool answers "proposed", the environment needs a change request: submit_change_request and tell me who must approve.',
            ].join('\n'),
          },
        },
      ],
    }),
  );

  server.registerPrompt(
    'clean_up_flag',
    {
      title: 'Remove a finished flag',
      description: 'Steps to remove a flag whose work is done, from the code and then from Bunting.',
      argsSchema: {
        flag: z.string().min(1).max(255).describe('Flag name'),
        project: z.string().min(1).max(255).describe('Project id'),
      },
    },
    ({ flag, project }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: [
              `Remove feature flag "${flag}" (project "${project}") from the code and retire it.`,
              '1. cleanup_flag: if it is not marked done, ask me whether it was kept or discarded and use mark_flag_done.',
              "2. Search the code for every spelling it lists; keep the branch it says, delete the other, and the variants' branches it names.",
              '3. Remove tests and mocks of the flag; run the tests.',
              '4. After the deploy, list_unused_flags shows when no SDK evaluates it; then archive_flag.',
            ].join('\n'),
          },
        },
      ],
    }),
  );
}

const single = (value: string | string[] | undefined): string => {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) throw new Error('The URI names no flag.');
  return decodeURIComponent(text);
};
