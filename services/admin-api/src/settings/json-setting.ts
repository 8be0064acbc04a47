import { z } from 'zod';
import { sql, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';

/**
 * One instance-wide setting kept as JSON in admin.settings: read with a fallback when unset or unreadable, and
 * saved with setting-created or setting-updated (nothing is recorded when the value does not change).
 */
export function jsonSetting<S extends z.ZodObject>(name: string, schema: S, fallback: z.infer<S>) {
  async function load(db: Queryable): Promise<z.infer<S>> {
    const content = await db.maybeOneFirst(sql.type(z.object({ content: z.unknown() }))`
      select content from admin.settings where name = ${name}`);
    const parsed = schema.safeParse(content);
    return parsed.success ? parsed.data : fallback;
  }

  async function save({ tx, emit }: Change, next: z.infer<S>): Promise<z.infer<S>> {
    const existed = await tx.exists(sql.unsafe`select 1 from admin.settings where name = ${name}`);
    const before = await load(tx);
    if (existed && JSON.stringify(before) === JSON.stringify(next)) return next;
    await tx.query(sql.unsafe`insert into admin.settings (name, content) values (${name}, ${sql.jsonb(next as object)})
      on conflict (name) do update set content = excluded.content, updated_at = now()`);
    emit({
      type: existed ? 'setting-updated' : 'setting-created',
      data: { id: name, ...next },
      preData: existed ? { id: name, ...before } : null,
    });
    return next;
  }

  return { name, load, save };
}
