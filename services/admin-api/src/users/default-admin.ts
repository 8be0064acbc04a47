import { SYSTEM_ACTOR } from '@bunting/contracts';
import type { Changes } from '../events/changes.ts';
import { ROOT_ROLE } from '../access/permission-catalogue.ts';
import type { PasswordHashing } from './passwords.ts';
import { userService } from './user-service.ts';
import { userReadModel } from './user-read-model.ts';

/** A fresh install gets one admin user (admin / unleash4all unless configured), as Unleash does. */
export async function ensureDefaultAdmin(
  changes: Changes,
  admin: { username: string; password: string } | null,
  hashing: PasswordHashing,
) {
  if (!admin) return;
  await changes.run({ system: SYSTEM_ACTOR }, async (change) => {
    if ((await userReadModel.count(change.tx)) > 0) return;
    await userService.create(
      change,
      { username: admin.username, name: 'Admin', password: admin.password, rootRole: ROOT_ROLE.ADMIN },
      { hashing },
    );
  });
}
