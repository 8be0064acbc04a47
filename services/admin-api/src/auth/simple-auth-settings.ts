import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';

export const SIMPLE_AUTH_SETTING = 'unleash.auth.simple';
export const SimpleAuthSettings = z.object({ disabled: z.boolean() });
export type SimpleAuthSettings = z.infer<typeof SimpleAuthSettings>;

/** Whether password sign-in is turned off; on unless an admin turned it off. */
export async function loadSimpleAuthSettings(db: Queryable): Promise<SimpleAuthSettings> {
  const content = await db.maybeOneFirst(sql.type(z.object({ content: z.unknown() }))`
    select content from admin.settings where name = ${SIMPLE_AUTH_SETTING}`);
  const parsed = SimpleAuthSettings.safeParse(content);
  return parsed.success ? parsed.data : { disabled: false };
}

export async function saveSimpleAuthSettings({ tx, emit }: Change, next: SimpleAuthSettings): Promise<SimpleAuthSettings> {
  const existed = await tx.exists(sql.unsafe`select 1 from admin.settings where name = ${SIMPLE_AUTH_SETTING}`);
  const before = await loadSimpleAuthSettings(tx);
  await tx.query(sql.unsafe`insert into admin.settings (name, content) values (${SIMPLE_AUTH_SETTING}, ${sql.jsonb(next)})
    on conflict (name) do update set content = excluded.content, updated_at = now()`);
  emit({
    type: existed ? 'setting-updated' : 'setting-created',
    data: { id: SIMPLE_AUTH_SETTING, ...next },
    preData: existed ? { id: SIMPLE_AUTH_SETTING, ...before } : null,
  });
  return next;
}
