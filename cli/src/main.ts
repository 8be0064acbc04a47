import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { ApiError, connect, type Api } from './api.ts';
import { applyPlan } from './apply.ts';
import { checkoutFacts, extinctions, scan } from './code-refs.ts';
import { exportProject } from './export.ts';
import { FileError, loadProjects, renderProject } from './files.ts';
import { openFeatureManifest, typescriptAccessors, type ManifestEntry } from './generate.ts';
import { planContextFields, planProject, planTemplates, type Step } from './plan.ts';
import { planJson, renderPlan } from './render.ts';
import { projectSchema } from './schema.ts';
import { readContextFields, readProject, readSegments, readTemplates, type ServerState } from './server-state.ts';

const VERSION = '0.1.0';

const USAGE = `bunting: flags as code for Bunting and Unleash 8

  bunting export   [--project P]... [--out DIR]     write projects as YAML files (all projects without --project)
  bunting plan     [--dir DIR] [--prune] [--json]   show what apply would change; exit 0 none, 2 changes, 1 error
  bunting apply    [--dir DIR] [--prune]            make the server match the files (change requests where required)
  bunting generate [--format typescript|openfeature] [--sdk server|web] [--out FILE]
                                                    typed accessors (or the OpenFeature manifest) from the server
  bunting code-refs [--dir DIR] [--repository NAME] [--branch B] [--context N] [--pattern REGEX]... [--dry-run]
                                                    record where the checkout's code uses flags (paths, lines and
                                                    N lines around each, default 2; 0 sends no source at all)
  bunting schema                                    print the project file's JSON Schema

  --url URL      the server (BUNTING_URL, default http://localhost:4242)
  --token TOKEN  an admin API token or personal access token (BUNTING_TOKEN)
  --commit SHA   the commit applied, recorded with the events (default GITHUB_SHA, CI_COMMIT_SHA or git's HEAD)
`;

/** The exit codes `plan` promises a CI job. */
const EXIT = { ok: 0, error: 1, changes: 2 } as const;

function commitOf(explicit: string | undefined, dir: string): string | undefined {
  const found = explicit ?? process.env['GITHUB_SHA'] ?? process.env['CI_COMMIT_SHA'];
  if (found) return found.slice(0, 12);
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}

async function planAll(api: Api, dir: string, prune: boolean) {
  const files = await loadProjects(dir);
  const segments = await readSegments(api);
  const states = new Map<string, ServerState>();
  const steps: Step[] = [];
  const fields = files.find((file) => file.content.contextFields !== undefined);
  if (fields) steps.push(...planContextFields(fields, await readContextFields(api), { prune }));
  const templates = files.find((file) => file.content.releaseTemplates !== undefined);
  if (templates) steps.push(...planTemplates(templates, await readTemplates(api, segments), { prune }));
  for (const loaded of files) {
    const project = loaded.content.project;
    if (project === undefined) continue;
    const state = await readProject(api, project, segments);
    states.set(project, state);
    steps.push(...planProject(loaded, project, state, { prune }));
  }
  const gated = (project: string, environment: string) => states.get(project)?.gated.has(environment) ?? false;
  return { steps, gated };
}

export async function run(argv: readonly string[], out = process.stdout, err = process.stderr): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      project: { type: 'string', multiple: true },
      out: { type: 'string' },
      dir: { type: 'string' },
      prune: { type: 'boolean' },
      json: { type: 'boolean' },
      commit: { type: 'string' },
      format: { type: 'string' },
      sdk: { type: 'string' },
      repository: { type: 'string' },
      branch: { type: 'string' },
      context: { type: 'string' },
      pattern: { type: 'string', multiple: true },
      'dry-run': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0];
  if (!command || values.help) {
    out.write(USAGE);
    return values.help ? EXIT.ok : EXIT.error;
  }
  if (command === 'schema') {
    out.write(`${JSON.stringify(projectSchema(), null, 2)}\n`);
    return EXIT.ok;
  }
  const token = values.token ?? process.env['BUNTING_TOKEN'];
  if (!token) {
    err.write('bunting: give a token with --token or BUNTING_TOKEN (an admin API token or a personal access token)\n');
    return EXIT.error;
  }
  const dir = values.dir ?? '.';
  const commit = commitOf(values.commit, dir);
  const api = connect({
    url: values.url ?? process.env['BUNTING_URL'] ?? 'http://localhost:4242',
    token,
    via: `bunting-cli/${VERSION}${commit ? ` (commit ${commit})` : ''}`,
  });
  try {
    switch (command) {
      case 'export': {
        const wanted =
          values.project ??
          (await api.get<{ projects: { id: string }[] }>('/api/admin/projects')).projects.map((project) => project.id);
        const target = values.out ?? '.';
        await mkdir(target, { recursive: true });
        const segments = await readSegments(api);
        for (const project of wanted) {
          const file = join(target, `${project}.yaml`);
          await writeFile(file, renderProject(exportProject(await readProject(api, project, segments))));
          out.write(`wrote ${file}\n`);
        }
        // The instance's own context fields and release templates, in a file of their own (none: no file).
        const fields = await readContextFields(api);
        const templates = await readTemplates(api, segments);
        if (fields.size > 0 || (templates?.size ?? 0) > 0) {
          const file = join(target, 'instance.yaml');
          await writeFile(
            file,
            renderProject({
              ...(fields.size > 0 ? { contextFields: Object.fromEntries(fields) } : {}),
              ...(templates && templates.size > 0
                ? {
                    releaseTemplates: Object.fromEntries(
                      [...templates].map(([name, template]) => [name, template.spec]),
                    ),
                  }
                : {}),
            }),
          );
          out.write(`wrote ${file}\n`);
        }
        return EXIT.ok;
      }
      case 'plan': {
        const { steps, gated } = await planAll(api, dir, values.prune ?? false);
        out.write(values.json ? `${JSON.stringify(planJson(steps, gated), null, 2)}\n` : renderPlan(steps, gated));
        return steps.length === 0 ? EXIT.ok : EXIT.changes;
      }
      case 'apply': {
        const { steps, gated } = await planAll(api, dir, values.prune ?? false);
        out.write(renderPlan(steps, gated));
        if (steps.length === 0) return EXIT.ok;
        const result = await applyPlan(api, steps, gated);
        out.write(`Applied ${result.applied} change(s).\n`);
        for (const request of result.changeRequests)
          out.write(
            `Opened change request ${request.id} for ${request.project}/${request.environment} (${request.changes} change(s)): ${request.url}\n`,
          );
        return EXIT.ok;
      }
      case 'generate': {
        const format = values.format ?? 'typescript';
        const sdk = values.sdk ?? 'server';
        if ((format !== 'typescript' && format !== 'openfeature') || (sdk !== 'server' && sdk !== 'web')) {
          err.write('bunting: --format is typescript or openfeature, --sdk server or web\n');
          return EXIT.error;
        }
        const manifest = await api.get<{ flags: ManifestEntry[] }>('/openfeature/v0/manifest');
        const text =
          format === 'typescript'
            ? typescriptAccessors(manifest.flags, { sdk, source: `${api.url}/openfeature/v0/manifest` })
            : openFeatureManifest(manifest.flags);
        if (values.out) {
          await mkdir(dirname(values.out), { recursive: true });
          await writeFile(values.out, text);
          out.write(`wrote ${values.out} (${manifest.flags.length} flags)\n`);
        } else out.write(text);
        return EXIT.ok;
      }
      case 'code-refs': {
        const facts = checkoutFacts(dir);
        const repository = values.repository ?? facts.repository;
        const branch = values.branch ?? facts.branch;
        if (!repository) {
          err.write('bunting: name the repository with --repository (the checkout has no origin remote)\n');
          return EXIT.error;
        }
        const contextLines = values.context === undefined ? 2 : Number(values.context);
        if (!Number.isInteger(contextLines) || contextLines < 0 || contextLines > 5) {
          err.write('bunting: --context is a number of lines from 0 to 5\n');
          return EXIT.error;
        }
        const patterns = (values.pattern ?? []).map((source) => new RegExp(source));
        const known = new Set(
          [
            ...(await api.get<{ features: { name: string }[] }>('/api/admin/features')).features,
            ...(await api.get<{ features: { name: string }[] }>('/api/admin/archive/features')).features,
          ].map((flag) => flag.name),
        );
        const found = await scan({ dir, contextLines, patterns }, known);
        const query = `repository=${encodeURIComponent(repository)}&branch=${encodeURIComponent(branch)}`;
        const before = (await api.get<{ flags: string[] }>(`/api/admin/code-references/flags?${query}`)).flags;
        const now = new Set(found.references.map((reference) => reference.flag));
        const removed = extinctions(
          dir,
          before.filter((flag) => !now.has(flag)),
        );
        out.write(
          `${found.references.length} reference(s) to ${now.size} flag(s) in ${repository} ${branch} at ${facts.commit.slice(0, 12)}` +
            (removed.length > 0
              ? `; last reference removed: ${removed.map((item) => `${item.flag} (${item.commit.slice(0, 12)})`).join(', ')}`
              : '') +
            (found.unknown.length > 0 ? `; names that are not flags here: ${found.unknown.join(', ')}` : '') +
            '\n',
        );
        if (values['dry-run']) {
          out.write(`${JSON.stringify(found.references, null, 2)}\n`);
          return EXIT.ok;
        }
        await api.send('POST', '/api/admin/code-references', {
          repository,
          branch,
          commit: facts.commit,
          references: found.references,
          extinctions: removed,
        });
        return EXIT.ok;
      }
      default:
        err.write(`bunting: no command ${command}\n\n${USAGE}`);
        return EXIT.error;
    }
  } catch (error) {
    // Whatever stopped it (a file, the server, the network) is said in one line a CI log shows.
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    const message =
      error instanceof FileError || error instanceof ApiError
        ? error.message
        : String((error as Error).message ?? error);
    err.write(`bunting: ${message}${cause && !message.includes(cause) ? ` (${cause})` : ''}\n`);
    return EXIT.error;
  }
}
