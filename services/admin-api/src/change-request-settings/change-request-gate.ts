import { changesAnswers, reachOf, type Principal } from '@bunting/contracts';
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
  return (
    (principal.kind === 'user' || principal.kind === 'pat') &&
    hasPermission(principal, Permission.SKIP_CHANGE_REQUEST, scope)
  );
}

/** A direct change refused because the environment's changes go through change requests. */
export class ChangeRequestRequired extends DomainError {
  constructor(scope: EnvironmentScope) {
    super(
      403,
      'NoAccessError',
      `Change requests are on for project "${scope.project}" in the "${scope.environment}" environment: propose this change with ` +
        `POST /api/admin/projects/${scope.project}/environments/${scope.environment}/change-requests, or have someone with the ` +
        `${Permission.SKIP_CHANGE_REQUEST} permission make it.`,
    );
  }
}

const keyOf = (scope: EnvironmentScope) => `${scope.project}\u0000${scope.environment}`;

/**
 * The gated project environments a change's events reach (of `gated`, the settings with change requests on), as the
 * one reach module (`reachOf` in the contracts) says: only what can alter the answers SDKs compute is gated.
 */
async function gatedScopesReached(
  db: Queryable,
  drafts: readonly EventDraft[],
  gated: readonly ChangeRequestSetting[],
): Promise<EnvironmentScope[]> {
  const reached = new Map<string, EnvironmentScope>();
  const add = (scope: EnvironmentScope) => reached.set(keyOf(scope), scope);
  for (const draft of drafts) {
    const reach = reachOf(draft);
    if (!reach.changesAnswers) continue;
    const places = reach.places;
    switch (places.kind) {
      case 'environment':
        if (places.project) add({ project: places.project, environment: places.environment });
        break;
      case 'projects':
        for (const setting of gated) if (places.projects.includes(setting.project)) add(setting);
        break;
      case 'environment-everywhere':
        for (const setting of gated) if (setting.environment === places.environment) add(setting);
        break;
      case 'segment':
        for (const scope of await segmentReadModel.environmentsUsing(db, places.segmentId)) add(scope);
        break;
      case 'everything':
        for (const setting of gated) add(setting);
        break;
      case 'none':
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
    if (!changesAnswers(drafts)) return;
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
    return new Map(
      (await changeRequestSettingsStore.forProject(db, project))
        .filter((row) => row.enabled)
        .map((row) => [row.environment, row.requiredApprovals]),
    );
  },

  async isOn(db: Queryable, scope: EnvironmentScope) {
    return (await changeRequestSettingsStore.get(db, scope.project, scope.environment))?.enabled ?? false;
  },
};
