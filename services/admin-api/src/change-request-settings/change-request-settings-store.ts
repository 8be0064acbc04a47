import { z } from 'zod';
import type { WriteTx } from '../events/write-tx.ts';
import { sql, type Queryable } from '@bunting/platform';

const SettingRow = z.object({
  project: z.string(),
  environment: z.string(),
  enabled: z.boolean(),
  requiredApprovals: z.number(),
});
export type ChangeRequestSetting = z.infer<typeof SettingRow>;

export const changeRequestSettingsStore = {
  get(db: Queryable, project: string, environment: string) {
    return db.maybeOne(sql.type(SettingRow)`
      select project_id as project, environment, enabled, required_approvals as "requiredApprovals"
      from admin.change_request_settings where project_id = ${project} and environment = ${environment}`);
  },
  forProject(db: Queryable, project: string) {
    return db.any(sql.type(SettingRow)`
      select project_id as project, environment, enabled, required_approvals as "requiredApprovals"
      from admin.change_request_settings where project_id = ${project}`);
  },
  /** Every project environment with change requests on (a small table: one row per project environment at most). */
  enabled(db: Queryable) {
    return db.any(sql.type(SettingRow)`
      select project_id as project, environment, enabled, required_approvals as "requiredApprovals"
      from admin.change_request_settings where enabled`);
  },
  upsert(db: WriteTx, setting: ChangeRequestSetting) {
    return db.query(sql.unsafe`
      insert into admin.change_request_settings (project_id, environment, enabled, required_approvals)
      values (${setting.project}, ${setting.environment}, ${setting.enabled}, ${setting.requiredApprovals})
      on conflict (project_id, environment) do update set enabled = excluded.enabled, required_approvals = excluded.required_approvals`);
  },
};
