import type { EventType, Principal } from '@bunting/contracts';
import { DomainError, Permission, hasPermission, type Queryable } from '@bunting/platform';
import type { ChangeGate, EnvironmentScope, EventDraft, Runner } from '../events/changes.ts';
import { segmentReadModel } from '../segments/segment-read-model.ts';
import { changeRequestSettingsStore, type ChangeRequestSetting } from './change-request-settings-store.ts';

export type { EnvironmentScope } from '../events/changes.ts';

/**
 * Whether a principal may change an environment with change requests on directly. Like Unleash: whoever holds
 * SKIP_CHANGE_REQUEST there (admins hold every permission), but only a person: API tokens and service accounts
 * never, even with the Admin role, because a change made past the four-eyes rule must name the person who made
 * it (and action sets run as service accounts, so a signal must not switch a reviewed environment).
 */
export function mayBypass(principal: Principal, scope: EnvironmentScope): boolean {
  return (principal.kind === 'user' || principal.kind === 'pat') && hasPermission(principal, Permission.SKIP_CHANGE_REQUEST, scope);
}

/** A direct change refused because the environment's changes go through change requests. */
export class ChangeRequestRequired extends DomainError {
  constructor(scope: EnvironmentScope) {
    super(403, 'NoAccessError',
      `Change requests are on for project "${scope.project}" in the "${scope.environment}" environment: propose this change with ` +
      `POST /api/admin/projects/${scope.project}/environments/${scope.environment}/change-requests, or have someone with the ` +
      `${Permission.SKIP_CHANGE_REQUEST} permission make it.`);
  }
}

/**
 * How each event that changes what SDKs are served reaches environments. Every other event (flag metadata, tags,
 * users, tokens, the change requests themselves...) touches no environment's configuration.
 */
type Reach = 'its-environment' | 'every-project-environment' | 'wherever-the-segment-is-used' | 'the-environment-in-every-project';
const REACH: Partial<Record<EventType, Reach>> = {
  'feature-strategy-add': 'its-environment',
  'feature-strategy-update': 'its-environment',
  'feature-strategy-remove': 'its-environment',
  'strategy-order-changed': 'its-environment',
  'feature-environment-enabled': 'its-environment',
  'feature-environment-disabled': 'its-environment',
  'feature-environment-variants-updated': 'its-environment',
  'features-imported': 'its-environment',
  // A flag's metadata in one environment: its release plan, progressions and safeguards (a flag's own metadata
  // names no environment and reaches none).
  'feature-metadata-updated': 'its-environment',
  // Removing an environment from a project wipes its flags' configuration there.
  'project-environment-removed': 'its-environment',
  // A flag archived, moved or depending on another changes every environment it is in; Unleash refuses archiving
  // in a project with change requests on unless the user may skip them.
  'feature-archived': 'every-project-environment',
  'feature-project-change': 'every-project-environment',
  'feature-variants-updated': 'every-project-environment',
  'feature-dependency-added': 'every-project-environment',
  'feature-dependency-removed': 'every-project-environment',
  'feature-dependencies-removed': 'every-project-environment',
  'segment-updated': 'wherever-the-segment-is-used',
  'segment-deleted': 'wherever-the-segment-is-used',
  'environment-deleted': 'the-environment-in-every-project',
  'environment-updated': 'the-environment-in-every-project',
};

const keyOf = (scope: EnvironmentScope) => `${scope.project}\u0000${scope.environment}`;
const segmentIdOf = (draft: EventDraft) => Number((draft.data ?? draft.preData)?.id);

/** The gated project environments a change's events reach (of `gated`, the settings with change requests on). */
async function gatedScopesReached(db: Queryable, drafts: readonly EventDraft[], gated: readonly ChangeRequestSetting[]): Promise<EnvironmentScope[]> {
  const reached = new Map<string, EnvironmentScope>();
  const add = (scope: EnvironmentScope) => reached.set(keyOf(scope), scope);
  for (const draft of drafts) {
    switch (REACH[draft.type]) {
      case 'its-environment':
        if (draft.project && draft.environment) add({ project: draft.project, environment: draft.environment });
        break;
      case 'every-project-environment':
        for (const setting of gated) if (setting.project === draft.project) add(setting);
        break;
      case 'the-environment-in-every-project':
        // An environment renamed or re-sorted serves the same; one switched off or deleted does not.
        if (draft.type === 'environment-updated' && draft.data?.enabled === draft.preData?.enabled) break;
        for (const setting of gated) if (setting.environment === draft.environment) add(setting);
        break;
      case 'wherever-the-segment-is-used':
        if (Number.isInteger(segmentIdOf(draft))) for (const scope of await segmentReadModel.environmentsUsing(db, segmentIdOf(draft))) add(scope);
        break;
      case undefined:
        break;
    }
  }
  const on = new Set(gated.map(keyOf));
  return [...reached.values()].filter((scope) => on.has(keyOf(scope)));
}

function mayChange(runner: Runner, approved: readonly EnvironmentScope[], scope: EnvironmentScope) {
  if (approved.some((entry) => entry.project === scope.project && entry.environment === scope.environment)) return true;
  return !('system' in runner) && mayBypass(runner, scope);
}

const gatedSettings = async (db: Queryable) => (await changeRequestSettingsStore.enabled(db)) as ChangeRequestSetting[];

/**
 * Change control in the unit of work: before a change commits, the environments its events reach are found, and
 * one with change requests on refuses the change unless the runner may skip them there or the work declared it
 * carries out an approval covering it. A route therefore cannot forget it. The settings are read before the work
 * (it may remove them, as deleting an environment does) and after it (one switched on meanwhile counts).
 */
export const unitOfWorkGate: ChangeGate = {
  before: gatedSettings,
  async check(tx, { runner, approved, drafts, before }) {
    if (!drafts.some((draft) => REACH[draft.type])) return;
    const settings = [...(before as ChangeRequestSetting[]), ...(await gatedSettings(tx))];
    if (settings.length === 0) return;
    for (const scope of await gatedScopesReached(tx, drafts, settings)) {
      if (!mayChange(runner, approved, scope)) throw new ChangeRequestRequired(scope);
    }
  },
};

export const changeRequestGate = {
  /** Change requests in one project environment: whether they are on and how many approvals they need. */
  async settings(db: Queryable, scope: EnvironmentScope) {
    const row = await changeRequestSettingsStore.get(db, scope.project, scope.environment);
    return { enabled: row?.enabled ?? false, requiredApprovals: row?.requiredApprovals ?? 1 };
  },

  /** The project's environments where change requests are on, with the approvals each needs. */
  async enabledIn(db: Queryable, project: string): Promise<Map<string, number>> {
    return new Map((await changeRequestSettingsStore.forProject(db, project)).filter((row) => row.enabled).map((row) => [row.environment, row.requiredApprovals]));
  },

  async isOn(db: Queryable, scope: EnvironmentScope) {
    return (await changeRequestSettingsStore.get(db, scope.project, scope.environment))?.enabled ?? false;
  },
};
