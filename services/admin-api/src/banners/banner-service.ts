import type { Banner, CreateBanner } from '@bunting/contracts';
import { NotFoundError, type Queryable } from '@bunting/platform';
import type { Change } from '../events/changes.ts';
import { bannerStore } from './banner-store.ts';

async function requireBanner(db: Queryable, id: number): Promise<Banner> {
  const banner = await bannerStore.get(db, id);
  if (!banner) throw new NotFoundError(`Could not find banner ${id}`);
  return banner;
}

/** Unleash's defaults: shown, "info", not sticky, no icon, link or dialog. */
const withDefaults = (input: CreateBanner) => ({
  message: input.message,
  enabled: input.enabled ?? true,
  variant: input.variant ?? 'info',
  sticky: input.sticky ?? false,
  icon: input.icon ?? null,
  link: input.link ?? null,
  linkText: input.linkText ?? null,
  dialogTitle: input.dialogTitle ?? null,
  dialog: input.dialog ?? null,
});

export const bannerService = {
  list: async (db: Queryable) => ({ banners: [...(await bannerStore.list(db))] }),

  async create({ tx, emit }: Change, input: CreateBanner): Promise<Banner> {
    const id = await bannerStore.insert(tx, withDefaults(input));
    const banner = await requireBanner(tx, id);
    emit({ type: 'banner-created', data: banner });
    return banner;
  },

  async update({ tx, emit }: Change, id: number, input: CreateBanner): Promise<Banner> {
    const before = await requireBanner(tx, id);
    await bannerStore.update(tx, id, withDefaults(input));
    const after = await requireBanner(tx, id);
    if (JSON.stringify(before) !== JSON.stringify(after))
      emit({ type: 'banner-updated', data: after, preData: before });
    return after;
  },

  async setEnabled({ tx, emit }: Change, id: number, enabled: boolean): Promise<Banner> {
    const before = await requireBanner(tx, id);
    if (before.enabled === enabled) return before;
    await bannerStore.setEnabled(tx, id, enabled);
    const after = await requireBanner(tx, id);
    emit({ type: 'banner-updated', data: after, preData: before });
    return after;
  },

  async delete({ tx, emit }: Change, id: number) {
    const before = await requireBanner(tx, id);
    await bannerStore.delete(tx, id);
    emit({ type: 'banner-deleted', preData: before });
  },
};
