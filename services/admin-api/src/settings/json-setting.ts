import { z } from 'zod';
import type { Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { settingStore } from './setting-store.ts';

type SettingOptions<T> = {
  /** What events record of a value, when that is less than the value (a secret left out). */
  eventData?: (value: T) => object;
};

/**
 * One instance-wide setting kept as JSON in admin.settings: read with a fallback when unset or unreadable, and
 * saved with setting-created or setting-updated (nothing is recorded when the value does not change).
 */
export function jsonSetting<S extends z.ZodObject>(
  name: string,
  schema: S,
  fallback: z.infer<S>,
  options: SettingOptions<z.infer<S>> = {},
) {
  const shown = options.eventData ?? ((value: z.infer<S>) => value);
  async function load(db: Queryable): Promise<z.infer<S>> {
    const parsed = schema.safeParse(await settingStore.content(db, name));
    return parsed.success ? parsed.data : fallback;
  }

  async function save({ tx, emit }: Change, next: z.infer<S>): Promise<z.infer<S>> {
    const existed = await settingStore.exists(tx, name);
    const before = await load(tx);
    if (existed && JSON.stringify(before) === JSON.stringify(next)) return next;
    await settingStore.save(tx, name, next);
    emit({
      type: existed ? 'setting-updated' : 'setting-created',
      data: { id: name, ...shown(next) },
      preData: existed ? { id: name, ...shown(before) } : null,
    });
    return next;
  }

  return { name, load, save };
}
