import type { Api } from './api.ts';
import { mapLimited } from './concurrency.ts';
import {
  STANDARD_CONTEXT_FIELDS,
  type ContextField,
  type Flag,
  type FlagEnvironment,
  type ReleaseTemplate,
  type Segment,
} from './model.ts';
import {
  normalizeContextField,
  normalizeEnvironment,
  normalizeFlagFields,
  normalizeSegment,
  normalizeTemplate,
} from './normalize.ts';

type Loose = Record<string, unknown>;

export interface ServerFlag {
  readonly fields: Omit<Flag, 'environments'>;
  readonly environments: Record<string, FlagEnvironment>;
  /** Each environment's strategy ids, in order, for updating them in place. */
  readonly strategyIds: Record<string, string[]>;
}

export interface ServerSegment {
  readonly id: number;
  readonly spec: Segment;
}

export interface ServerState {
  readonly project: string;
  readonly environments: readonly string[];
  /** Environments that require change requests, with their approvals (none where the server has no such thing). */
  readonly changeRequests: ReadonlyMap<string, number>;
  /** Environments where changes go through change requests. */
  readonly gated: ReadonlySet<string>;
  readonly flags: ReadonlyMap<string, ServerFlag>;
  readonly segments: ReadonlyMap<string, ServerSegment>;
}

const path = (value: string) => encodeURIComponent(value);
const READ_CONCURRENCY = 8;

export async function readSegments(api: Api): Promise<Map<string, ServerSegment>> {
  const { segments } = await api.get<{ segments: Loose[] }>('/api/admin/segments');
  return new Map(
    segments.map((segment) => [
      String(segment['name']),
      { id: Number(segment['id']), spec: normalizeSegment(segment) },
    ]),
  );
}

export async function readProject(
  api: Api,
  project: string,
  segments?: Map<string, ServerSegment>,
): Promise<ServerState> {
  const known = segments ?? (await readSegments(api));
  const segmentNames = new Map([...known].map(([name, segment]) => [segment.id, name]));
  const nameOfSegment = (id: unknown) => segmentNames.get(Number(id)) ?? `#${String(id)}`;
  const environments = await api.get<{ environments: { name: string; enabled: boolean }[] }>(
    `/api/admin/environments/project/${path(project)}`,
  );
  // Unleash's open-source server has no change requests (404): nothing is gated there.
  const config = await api.getOptional<
    { environment: string; changeRequestEnabled: boolean; requiredApprovals: number | null }[]
  >(`/api/admin/projects/${path(project)}/change-requests/config`);
  const listed = await api.get<{ features: { name: string }[] }>(`/api/admin/projects/${path(project)}/features`);
  // A flag at a time is two requests: several at once keep a large project's plan short.
  const read = await mapLimited(listed.features, READ_CONCURRENCY, async ({ name }) => {
    const flag = await api.get<Loose & { environments: (Loose & { name: string; enabled: boolean })[] }>(
      `/api/admin/projects/${path(project)}/features/${path(name)}`,
    );
    const { tags } = await api.get<{ tags: { type: string; value: string }[] }>(
      `/api/admin/features/${path(name)}/tags`,
    );
    const environmentsOfFlag: Record<string, FlagEnvironment> = {};
    const strategyIds: Record<string, string[]> = {};
    for (const environment of flag.environments) {
      const strategies = ((environment['strategies'] as Loose[] | undefined) ?? [])
        .slice()
        .sort((a, b) => Number(a['sortOrder'] ?? 0) - Number(b['sortOrder'] ?? 0));
      strategyIds[environment.name] = strategies.map((strategy) => String(strategy['id']));
      environmentsOfFlag[environment.name] = normalizeEnvironment(
        { enabled: environment.enabled, strategies, variants: environment['variants'] as Loose[] | undefined },
        name,
        nameOfSegment,
      );
    }
    const state: ServerFlag = {
      fields: normalizeFlagFields({ ...flag, tags: tags.map((tag) => `${tag.type}:${tag.value}`) }),
      environments: environmentsOfFlag,
      strategyIds,
    };
    return [name, state] as const;
  });
  const flags = new Map<string, ServerFlag>(read);
  return {
    project,
    environments: environments.environments.map((environment) => environment.name),
    changeRequests: new Map(
      (config ?? [])
        .filter((entry) => entry.changeRequestEnabled)
        .map((entry) => [entry.environment, entry.requiredApprovals ?? 1]),
    ),
    gated: new Set((config ?? []).filter((entry) => entry.changeRequestEnabled).map((entry) => entry.environment)),
    flags,
    segments: known,
  };
}

/** The instance's own context fields (not the standard ones), by name. */
export async function readContextFields(api: Api): Promise<Map<string, ContextField>> {
  const fields = await api.get<Loose[]>('/api/admin/context');
  return new Map(
    fields
      .filter((field) => !STANDARD_CONTEXT_FIELDS.has(String(field['name'])) && !field['project'])
      .map((field) => [String(field['name']), normalizeContextField(field)] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

export interface ServerTemplate {
  readonly id: string;
  readonly spec: ReleaseTemplate;
}

/** The instance's global release templates by name; null where the server has none (Unleash's open source). */
export async function readTemplates(
  api: Api,
  segments: ReadonlyMap<string, ServerSegment>,
): Promise<Map<string, ServerTemplate> | null> {
  const templates = await api.getOptional<Loose[]>('/api/admin/release-plan-templates');
  if (templates === null) return null;
  const names = new Map([...segments].map(([name, segment]) => [segment.id, name]));
  return new Map(
    templates
      .filter((template) => !template['archivedAt'])
      .map(
        (template) =>
          [
            String(template['name']),
            {
              id: String(template['id']),
              spec: normalizeTemplate(template, (id) => names.get(Number(id)) ?? `#${String(id)}`),
            },
          ] as const,
      )
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}
