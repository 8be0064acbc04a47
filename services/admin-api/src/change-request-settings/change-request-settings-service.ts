import type { ChangeRequestEnvironmentConfig } from '@bunting/contracts';
import type { Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { projectReadModel, requireProject, requireProjectEnvironment } from '../projects/project-read-model.ts';
import { changeRequestSettingsStore } from './change-request-settings-store.ts';

/** Unleash clamps the approvals asked for to 1-10. */
const clampApprovals = (value: number | undefined, current: number) => Math.min(10, Math.max(1, value ?? current));

export const changeRequestSettingsService = {
  /** Every environment of the project, with whether its changes need change requests (changeRequestConfigSchema). */
  async list(db: Queryable, project: string): Promise<ChangeRequestEnvironmentConfig[]> {
    await requireProject(db, project);
    const [environments, settings] = await Promise.all([
      projectReadModel.environmentsOf(db, [project]),
      changeRequestSettingsStore.forProject(db, project),
    ]);
    const byEnvironment = new Map(settings.map((setting) => [setting.environment, setting]));
    return environments.map((environment) => {
      const setting = byEnvironment.get(environment.name);
      return {
        environment: environment.name,
        type: environment.type,
        changeRequestEnabled: setting?.enabled ?? false,
        requiredApprovals: setting ? setting.requiredApprovals : null,
      };
    });
  },

  async update(
    change: Change,
    project: string,
    environment: string,
    input: { changeRequestsEnabled: boolean; requiredApprovals?: number | undefined },
  ) {
    await requireProjectEnvironment(change.tx, project, environment);
    const before = await changeRequestSettingsStore.get(change.tx, project, environment);
    const after = {
      project,
      environment,
      enabled: input.changeRequestsEnabled,
      requiredApprovals: clampApprovals(input.requiredApprovals, before?.requiredApprovals ?? 1),
    };
    if (before && before.enabled === after.enabled && before.requiredApprovals === after.requiredApprovals) return;
    await changeRequestSettingsStore.upsert(change.tx, after);
    change.emit({
      type: 'change-request-configuration-updated',
      project,
      environment,
      data: { changeRequestsEnabled: after.enabled, requiredApprovals: after.requiredApprovals },
      preData: before ? { changeRequestsEnabled: before.enabled, requiredApprovals: before.requiredApprovals } : null,
    });
  },
};
