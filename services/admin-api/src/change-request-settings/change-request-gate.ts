import type { Principal } from '@bunting/contracts';
import { DomainError, Permission, hasPermission, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { changeRequestSettingsStore } from './change-request-settings-store.ts';

export type EnvironmentScope = { project: string; environment: string };

/**
 * Whether a principal may change an environment with change requests on directly. Like Unleash: whoever holds
 * SKIP_CHANGE_REQUEST there (admins hold every permission); API tokens never, even admin tokens, because a change
 * made past the four-eyes rule must name the person who made it.
 */
export function mayBypass(principal: Principal, scope: EnvironmentScope): boolean {
  return principal.kind !== 'api-token' && hasPermission(principal, Permission.SKIP_CHANGE_REQUEST, scope);
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

  /**
   * Refuses a direct change touching any of the given project environments where change requests are on, unless
   * the principal may bypass them there. Called inside the change's transaction, so a setting switched on at the
   * same moment is seen.
   */
  async requireDirect(db: Queryable, principal: Principal, scopes: readonly EnvironmentScope[]) {
    if (scopes.length === 0) return;
    for (const setting of await changeRequestSettingsStore.enabledAmong(db, scopes)) {
      const scope = { project: setting.project, environment: setting.environment };
      if (!mayBypass(principal, scope)) throw new ChangeRequestRequired(scope);
    }
  },
};

/**
 * The work of a direct change, preceded in its transaction by the change-request check for the project
 * environments it touches (given, or found from the database when they depend on what is there).
 */
export function direct<T>(
  principal: Principal,
  scopes: readonly EnvironmentScope[] | ((db: Queryable) => Promise<readonly EnvironmentScope[]>),
  work: (change: Change) => Promise<T>,
): (change: Change) => Promise<T> {
  return async (change) => {
    await changeRequestGate.requireDirect(change.tx, principal, typeof scopes === 'function' ? await scopes(change.tx) : scopes);
    return work(change);
  };
}
