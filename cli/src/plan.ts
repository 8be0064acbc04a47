import type { Api } from './api.ts';
import { FileError, type LoadedProject } from './files.ts';
import {
  STANDARD_CONTEXT_FIELDS,
  type Constraint,
  type ContextField,
  type Flag,
  type FlagEnvironment,
  type ReleaseTemplate,
  type Strategy,
} from './model.ts';
import {
  normalizeContextField,
  normalizeEnvironment,
  normalizeTemplate,
  normalizeFlagFields,
  normalizeSegment,
  same,
  withWeights,
} from './normalize.ts';
import type { ServerState, ServerTemplate } from './server-state.ts';

/** What a step needs when it runs: ids the plan could not know (a segment made earlier in the same apply). */
export interface RunContext {
  readonly api: Api;
  segmentId(name: string): number;
}

export type StepKind = 'create' | 'update' | 'delete' | 'archive';

/** One change the server needs to match the files. */
export interface Step {
  readonly kind: StepKind;
  readonly project: string;
  /** What it is about: "flag checkout", "segment beta", "checkout in production". */
  readonly subject: string;
  /** What changes, in a reviewer's words. */
  readonly detail: string;
  /**
   * When it runs: segments (0), flags' own fields (1), dependencies on parents made in 1 (2), environments (3),
   * archiving (4). Steps of one phase about different flags are independent; those about one flag keep their order.
   */
  readonly phase: 0 | 1 | 2 | 3 | 4;
  /** The flag it is about, which orders steps within a phase. */
  readonly flag?: string;
  /** Set for changes to one environment of a flag, which a change request may have to hold. */
  readonly environment?: string;
  /** The change as a change request holds it (environment steps only). */
  readonly change?: (context: RunContext) => Record<string, unknown>;
  readonly run: (context: RunContext) => Promise<void>;
}

const path = (value: string) => encodeURIComponent(value);

/** A constraint as the admin API takes it: the defaults the files leave out written in. */
const constraintBody = (constraint: Constraint) => ({
  values: [],
  caseInsensitive: false,
  inverted: false,
  ...constraint,
});

/** A flag's own fields as POST and PUT of a flag take them. */
const flagBody = (name: string, fields: Omit<Flag, 'environments'>) => ({
  name,
  type: fields.type ?? 'release',
  description: fields.description ?? '',
  impressionData: fields.impressionData ?? false,
});

function strategyBody(strategy: Strategy, context: RunContext): Record<string, unknown> {
  return {
    name: strategy.name,
    title: strategy.title ?? '',
    disabled: strategy.disabled ?? false,
    parameters: strategy.parameters ?? {},
    constraints: (strategy.constraints ?? []).map(constraintBody),
    segments: (strategy.segments ?? []).map((name) => context.segmentId(name)),
    variants: withWeights(strategy.variants ?? []).map((variant) => ({ stickiness: 'default', ...variant })),
  };
}

function describeStrategy(strategy: Strategy): string {
  const parts = [strategy.title ? `${strategy.name} "${strategy.title}"` : strategy.name];
  const rollout = strategy.parameters?.['rollout'];
  if (rollout !== undefined) parts.push(`${rollout}%`);
  for (const constraint of strategy.constraints ?? [])
    parts.push(
      `${constraint.contextName} ${constraint.inverted ? 'NOT ' : ''}${constraint.operator} ${constraint.value ?? `[${(constraint.values ?? []).join(', ')}]`}`,
    );
  if (strategy.segments?.length) parts.push(`segments ${strategy.segments.join(', ')}`);
  if (strategy.variants?.length) parts.push(`variants ${strategy.variants.map((variant) => variant.name).join(', ')}`);
  if (strategy.disabled) parts.push('(disabled)');
  return parts.join(', ');
}

/** Which fields differ, for the plan's line. */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys
    .filter((key) => !same(before[key], after[key]))
    .map((key) => `${key}: ${JSON.stringify(before[key] ?? null)} -> ${JSON.stringify(after[key] ?? null)}`)
    .join('; ');
}

/** Parents before children, so a dependency is added once its parent exists. */
function inDependencyOrder(flags: [string, Flag][]): [string, Flag][] {
  const byName = new Map(flags);
  const ordered: [string, Flag][] = [];
  const placed = new Set<string>();
  const visit = (name: string, trail: Set<string>) => {
    if (placed.has(name) || trail.has(name)) return;
    const flag = byName.get(name);
    if (!flag) return;
    trail.add(name);
    for (const dependency of flag.dependencies ?? []) visit(dependency.feature, trail);
    placed.add(name);
    ordered.push([name, flag]);
  };
  for (const [name] of flags) visit(name, new Set());
  return ordered;
}

/**
 * The steps that make the server's project match its file, in an order that keeps SDKs' answers sound: segments
 * first, then flags and their parents, then in each environment strategies and variants before a flag goes on, and
 * off before its strategies go.
 */
export function planProject(
  loaded: LoadedProject,
  project: string,
  server: ServerState,
  options: { prune: boolean },
): Step[] {
  const { content: file, lineOf } = loaded;
  const steps: Step[] = [];
  const base = `/api/admin/projects/${path(project)}`;
  const environments = new Set(server.environments);

  // The project's environments first: flags' environments below may be new ones.
  for (const environment of file.environments ?? []) {
    if (environments.has(environment)) continue;
    environments.add(environment);
    steps.push({
      kind: 'create',
      phase: 0,
      project,
      subject: `environment ${environment}`,
      detail: `used by the project`,
      run: async ({ api }) => {
        await api.send('POST', `${base}/environments`, { environment });
      },
    });
  }
  if (options.prune && file.environments !== undefined) {
    for (const environment of server.environments.filter((name) => !file.environments!.includes(name))) {
      environments.delete(environment);
      steps.push({
        kind: 'delete',
        phase: 4,
        project,
        subject: `environment ${environment}`,
        detail: 'no longer used by the project (no longer in the files)',
        run: async ({ api }) => {
          await api.send('DELETE', `${base}/environments/${path(environment)}`);
        },
      });
    }
  }
  if (file.changeRequests !== undefined) steps.push(...changeRequestSteps(project, file.changeRequests, server));

  // Files are checked against the server before anything is planned.
  const fileSegments = file.segments ?? {};
  for (const [name, flag] of Object.entries(file.flags ?? {})) {
    for (const [environment, state] of Object.entries(flag.environments ?? {})) {
      if (!environments.has(environment))
        throw new FileError(
          loaded.file,
          lineOf(['flags', name, 'environments', environment]),
          `project ${project} has no environment ${environment}`,
        );
      (state.strategies ?? []).forEach((strategy, index) => {
        (strategy.segments ?? []).forEach((segment, at) => {
          if (!(segment in fileSegments) && !server.segments.has(segment))
            throw new FileError(
              loaded.file,
              lineOf(['flags', name, 'environments', environment, 'strategies', index, 'segments', at]),
              `segment ${segment} is neither in the files nor on the server`,
            );
        });
      });
    }
    for (const dependency of flag.dependencies ?? []) {
      if (!(dependency.feature in (file.flags ?? {})) && !server.flags.has(dependency.feature))
        throw new FileError(
          loaded.file,
          lineOf(['flags', name, 'dependencies']),
          `flag ${dependency.feature} is neither in the files nor in project ${project}`,
        );
    }
  }

  for (const [name, segment] of Object.entries(fileSegments)) {
    const wanted = normalizeSegment(segment);
    const existing = server.segments.get(name);
    const body = {
      name,
      description: wanted.description ?? '',
      constraints: wanted.constraints.map(constraintBody),
    };
    if (!existing) {
      steps.push({
        kind: 'create',
        phase: 0,
        project,
        subject: `segment ${name}`,
        detail: `${wanted.constraints.length} constraint(s)`,
        run: async ({ api }) => {
          await api.send('POST', '/api/admin/segments', body);
        },
      });
    } else if (!same(existing.spec, wanted)) {
      steps.push({
        kind: 'update',
        phase: 0,
        project,
        subject: `segment ${name}`,
        detail: changedFields(existing.spec, wanted),
        run: async ({ api }) => {
          await api.send('PUT', `/api/admin/segments/${existing.id}`, body);
        },
      });
    }
  }

  const segmentName = (id: unknown) => String(id);
  for (const [name, flag] of inDependencyOrder(Object.entries(file.flags ?? {}))) {
    const current = server.flags.get(name);
    const fields = normalizeFlagFields(flag);
    const currentFields = current?.fields ?? {};
    if (!current) {
      steps.push({
        kind: 'create',
        phase: 1,
        flag: name,
        project,
        subject: `flag ${name}`,
        detail: `${fields.type ?? 'release'}${fields.description ? `: ${fields.description}` : ''}`,
        run: async ({ api }) => {
          await api.send('POST', `${base}/features`, flagBody(name, fields));
        },
      });
    } else {
      const own = (value: typeof fields) => ({
        type: value.type,
        description: value.description,
        impressionData: value.impressionData,
      });
      if (!same(own(currentFields), own(fields))) {
        steps.push({
          kind: 'update',
          phase: 1,
          flag: name,
          project,
          subject: `flag ${name}`,
          detail: changedFields(own(currentFields), own(fields)),
          run: async ({ api }) => {
            await api.send('PUT', `${base}/features/${path(name)}`, flagBody(name, fields));
          },
        });
      }
    }
    const tagsBefore = new Set(currentFields.tags ?? []);
    const tagsAfter = new Set(fields.tags ?? []);
    const added = [...tagsAfter].filter((tag) => !tagsBefore.has(tag));
    const removed = [...tagsBefore].filter((tag) => !tagsAfter.has(tag));
    if (added.length + removed.length > 0) {
      const asTag = (tag: string) => ({ type: tag.slice(0, tag.indexOf(':')), value: tag.slice(tag.indexOf(':') + 1) });
      steps.push({
        kind: 'update',
        phase: 1,
        flag: name,
        project,
        subject: `flag ${name}`,
        detail: [...added.map((tag) => `+tag ${tag}`), ...removed.map((tag) => `-tag ${tag}`)].join(', '),
        run: async ({ api }) => {
          await api.send('PUT', `/api/admin/features/${path(name)}/tags`, {
            addedTags: added.map(asTag),
            removedTags: removed.map(asTag),
          });
        },
      });
    }
    const parentBefore = currentFields.dependencies?.[0];
    const parentAfter = fields.dependencies?.[0];
    if (!same(parentBefore, parentAfter)) {
      steps.push({
        kind: parentAfter ? (parentBefore ? 'update' : 'create') : 'delete',
        phase: 2,
        flag: name,
        project,
        subject: `flag ${name}`,
        detail: parentAfter
          ? `depends on ${parentAfter.feature}${parentAfter.enabled === false ? ' being off' : ''}${parentAfter.variants?.length ? ` with variants ${parentAfter.variants.join(', ')}` : ''}`
          : `no longer depends on ${parentBefore!.feature}`,
        run: async ({ api }) => {
          if (parentBefore && parentBefore.feature !== parentAfter?.feature)
            await api.send('DELETE', `${base}/features/${path(name)}/dependencies/${path(parentBefore.feature)}`);
          if (parentAfter)
            await api.send('POST', `${base}/features/${path(name)}/dependencies`, {
              feature: parentAfter.feature,
              enabled: parentAfter.enabled ?? true,
              variants: parentAfter.variants ?? [],
            });
        },
      });
    }
    for (const [environment, state] of Object.entries(flag.environments ?? {})) {
      const wanted = normalizeEnvironment(state as Parameters<typeof normalizeEnvironment>[0], name, segmentName);
      const before: FlagEnvironment = current?.environments[environment] ?? { enabled: false };
      steps.push(
        ...environmentSteps(project, name, environment, before, wanted, current?.strategyIds[environment] ?? []),
      );
    }
  }

  if (options.prune) {
    const kept = new Set(Object.keys(file.flags ?? {}));
    // Where an environment of the project requires change requests, archiving is proposed there (as Unleash's UI
    // proposes it), since it stops the flag in every environment.
    const gatedEnvironment = [...server.gated].sort()[0];
    for (const name of [...server.flags.keys()].filter((flag) => !kept.has(flag)).sort()) {
      steps.push({
        kind: 'archive',
        phase: 4,
        flag: name,
        project,
        subject: `flag ${name}`,
        detail: `archive ${name} (no longer in the files)`,
        ...(gatedEnvironment !== undefined
          ? { environment: gatedEnvironment, change: () => ({ action: 'archiveFeature', feature: name }) }
          : {}),
        run: async ({ api }) => {
          await api.send('POST', `${base}/archive`, { features: [name] });
        },
      });
    }
  }
  return steps;
}

function environmentSteps(
  project: string,
  flag: string,
  environment: string,
  before: FlagEnvironment,
  after: FlagEnvironment,
  strategyIds: readonly string[],
): Step[] {
  const base = `/api/admin/projects/${path(project)}/features/${path(flag)}/environments/${path(environment)}`;
  const subject = `${flag} in ${environment}`;
  const steps: Step[] = [];
  const common = { project, subject, environment, flag, phase: 3 as const };
  const toggle = (enabled: boolean): Step => ({
    ...common,
    kind: 'update',
    detail: enabled ? 'turn on' : 'turn off',
    change: () => ({ action: 'updateEnabled', feature: flag, payload: { enabled } }),
    run: async ({ api }) => {
      await api.send('POST', `${base}/${enabled ? 'on' : 'off'}`);
    },
  });
  if (before.enabled && !after.enabled) steps.push(toggle(false));

  const wantedStrategies = after.strategies ?? [];
  const currentStrategies = before.strategies ?? [];
  wantedStrategies.forEach((strategy, index) => {
    const existing = currentStrategies[index];
    const id = strategyIds[index];
    if (existing && id !== undefined) {
      if (same(existing, strategy)) return;
      steps.push({
        ...common,
        kind: 'update',
        detail: `strategy ${index + 1}: ${changedFields(existing as Record<string, unknown>, strategy as Record<string, unknown>)}`,
        change: (context) => ({
          action: 'updateStrategy',
          feature: flag,
          payload: { id, ...strategyBody(strategy, context) },
        }),
        run: async (context) => {
          await context.api.send('PUT', `${base}/strategies/${path(id)}`, strategyBody(strategy, context));
        },
      });
    } else {
      steps.push({
        ...common,
        kind: 'create',
        detail: `strategy ${describeStrategy(strategy)}`,
        change: (context) => ({ action: 'addStrategy', feature: flag, payload: strategyBody(strategy, context) }),
        run: async (context) => {
          await context.api.send('POST', `${base}/strategies`, strategyBody(strategy, context));
        },
      });
    }
  });
  currentStrategies.slice(wantedStrategies.length).forEach((strategy, offset) => {
    const id = strategyIds[wantedStrategies.length + offset]!;
    steps.push({
      ...common,
      kind: 'delete',
      detail: `strategy ${describeStrategy(strategy)}`,
      change: () => ({ action: 'deleteStrategy', feature: flag, payload: { id } }),
      run: async ({ api }) => {
        await api.send('DELETE', `${base}/strategies/${path(id)}`);
      },
    });
  });

  if (!same(before.variants ?? [], after.variants ?? [])) {
    const variants = withWeights(after.variants ?? []).map((variant) => ({ stickiness: 'default', ...variant }));
    steps.push({
      ...common,
      kind: 'update',
      detail: `variants ${(after.variants ?? []).map((variant) => variant.name).join(', ') || '(none)'}`,
      change: () => ({ action: 'patchVariant', feature: flag, payload: { variants } }),
      run: async ({ api }) => {
        await api.send('PUT', `${base}/variants`, variants);
      },
    });
  }
  if (!before.enabled && after.enabled) steps.push(toggle(true));
  return steps;
}

/**
 * Change-request settings: an environment that stops requiring them does so first, so the rest of the apply reaches
 * it directly; one that starts requiring them does so last, once what the files hold is in place.
 */
function changeRequestSteps(
  project: string,
  wanted: Readonly<Record<string, { requiredApprovals: number }>>,
  server: ServerState,
): Step[] {
  const base = `/api/admin/projects/${path(project)}/environments`;
  const steps: Step[] = [];
  const set = (environment: string, enabled: boolean, approvals: number, phase: 0 | 4): Step => ({
    kind: enabled ? (server.changeRequests.has(environment) ? 'update' : 'create') : 'delete',
    phase,
    project,
    subject: `change requests in ${environment}`,
    detail: enabled ? `required, ${approvals} approval(s)` : 'no longer required',
    run: async ({ api }) => {
      await api.send('PUT', `${base}/${path(environment)}/change-requests/config`, {
        changeRequestsEnabled: enabled,
        requiredApprovals: approvals,
      });
    },
  });
  for (const [environment, approvals] of server.changeRequests)
    if (!(environment in wanted)) steps.push(set(environment, false, approvals, 0));
  for (const [environment, { requiredApprovals }] of Object.entries(wanted))
    if (server.changeRequests.get(environment) !== requiredApprovals)
      steps.push(set(environment, true, requiredApprovals, 4));
  return steps;
}

/** The instance's context fields, before anything that may name them in a constraint. */
export function planContextFields(
  loaded: LoadedProject,
  server: ReadonlyMap<string, ContextField>,
  options: { prune: boolean },
): Step[] {
  const steps: Step[] = [];
  const wanted = loaded.content.contextFields ?? {};
  const body = (name: string, field: ContextField) => ({
    name,
    description: field.description ?? '',
    stickiness: field.stickiness ?? false,
    legalValues: field.legalValues ?? [],
  });
  for (const [name, field] of Object.entries(wanted)) {
    if (STANDARD_CONTEXT_FIELDS.has(name))
      throw new FileError(
        loaded.file,
        loaded.lineOf(['contextFields', name]),
        `${name} is a standard context field: leave it out`,
      );
    const normalized = normalizeContextField(field);
    const current = server.get(name);
    if (current && same(current, normalized)) continue;
    steps.push({
      kind: current ? 'update' : 'create',
      phase: 0,
      project: '(instance)',
      subject: `context field ${name}`,
      detail: current
        ? changedFields(current as Record<string, unknown>, normalized as Record<string, unknown>)
        : `${(field.legalValues ?? []).length} legal value(s)`,
      run: async ({ api }) => {
        if (current) await api.send('PUT', `/api/admin/context/${path(name)}`, body(name, field));
        else await api.send('POST', '/api/admin/context', body(name, field));
      },
    });
  }
  if (options.prune)
    for (const name of [...server.keys()].filter((field) => !(field in wanted)))
      steps.push({
        kind: 'delete',
        phase: 4,
        project: '(instance)',
        subject: `context field ${name}`,
        detail: 'no longer in the files',
        run: async ({ api }) => {
          await api.send('DELETE', `/api/admin/context/${path(name)}`);
        },
      });
  return steps;
}

/** The instance's release templates: made or replaced whole (PUT replaces a template's milestones). */
export function planTemplates(
  loaded: LoadedProject,
  server: ReadonlyMap<string, ServerTemplate> | null,
  options: { prune: boolean },
): Step[] {
  const wanted = loaded.content.releaseTemplates ?? {};
  if (server === null) {
    if (Object.keys(wanted).length === 0) return [];
    throw new FileError(loaded.file, loaded.lineOf(['releaseTemplates']), 'this server has no release templates');
  }
  const steps: Step[] = [];
  const body = (name: string, template: ReleaseTemplate, context: RunContext) => ({
    name,
    description: template.description ?? '',
    milestones: template.milestones.map((milestone, index) => ({
      name: milestone.name,
      sortOrder: index,
      transitionCondition: milestone.intervalMinutes ? { intervalMinutes: milestone.intervalMinutes } : null,
      strategies: (milestone.strategies ?? []).map((strategy) => strategyBody(strategy, context)),
    })),
  });
  const identity = (id: unknown) => String(id);
  for (const [name, template] of Object.entries(wanted)) {
    const normalized = normalizeTemplate(template as Record<string, unknown>, identity);
    const current = server.get(name);
    if (current && same(current.spec, normalized)) continue;
    steps.push({
      kind: current ? 'update' : 'create',
      phase: 1,
      project: '(instance)',
      subject: `release template ${name}`,
      detail: current ? 'milestones replaced' : `${template.milestones.length} milestone(s)`,
      run: async (context) => {
        if (current)
          await context.api.send(
            'PUT',
            `/api/admin/release-plan-templates/${path(current.id)}`,
            body(name, template, context),
          );
        else await context.api.send('POST', '/api/admin/release-plan-templates', body(name, template, context));
      },
    });
  }
  if (options.prune)
    for (const [name, current] of server)
      if (!(name in wanted))
        steps.push({
          kind: 'archive',
          phase: 4,
          project: '(instance)',
          subject: `release template ${name}`,
          detail: 'no longer in the files',
          run: async ({ api }) => {
            await api.send('DELETE', `/api/admin/release-plan-templates/${path(current.id)}`);
          },
        });
  return steps;
}
