import type { Flag, ProjectFile, Segment } from './model.ts';
import type { ServerState } from './server-state.ts';

/** A project as the server holds it, written the way a person would write its file. */
export function exportProject(server: ServerState): ProjectFile {
  const flags: Record<string, Flag> = {};
  const used = new Set<string>();
  for (const [name, flag] of [...server.flags].sort(([a], [b]) => a.localeCompare(b))) {
    const environments: NonNullable<Flag['environments']> = {};
    for (const environment of server.environments) {
      const state = flag.environments[environment];
      if (!state) continue;
      environments[environment] = state;
      for (const strategy of state.strategies ?? []) for (const segment of strategy.segments ?? []) used.add(segment);
    }
    flags[name] = { ...flag.fields, environments };
  }
  const segments: Record<string, Segment> = {};
  for (const name of [...used].sort()) {
    const segment = server.segments.get(name);
    if (segment) segments[name] = segment.spec;
  }
  return {
    project: server.project,
    environments: [...server.environments],
    ...(server.changeRequests.size > 0
      ? {
          changeRequests: Object.fromEntries(
            [...server.changeRequests]
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([name, approvals]) => [name, { requiredApprovals: approvals }]),
          ),
        }
      : {}),
    flags,
    ...(Object.keys(segments).length > 0 ? { segments } : {}),
  };
}
