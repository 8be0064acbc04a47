import { z } from 'zod';

const Nullable = (max: number) => z.string().max(max).nullable().optional();

/** createBannerSchema: a message shown to every user of the console, with an optional link or dialog. */
export const CreateBanner = z
  .object({
    message: z.string().min(1).max(10_000),
    enabled: z.boolean().optional(),
    variant: z.enum(['info', 'warning', 'error', 'success']).optional(),
    sticky: z.boolean().optional(),
    icon: Nullable(100),
    link: Nullable(2_000),
    linkText: Nullable(255),
    dialogTitle: Nullable(255),
    dialog: Nullable(50_000),
  })
  .strict();
export type CreateBanner = z.infer<typeof CreateBanner>;

export const Banner = z.object({
  id: z.number().int(),
  message: z.string(),
  enabled: z.boolean(),
  variant: z.string(),
  sticky: z.boolean(),
  icon: z.string().nullable(),
  link: z.string().nullable(),
  linkText: z.string().nullable(),
  dialogTitle: z.string().nullable(),
  dialog: z.string().nullable(),
  createdAt: z.string(),
});
export type Banner = z.infer<typeof Banner>;
export const Banners = z.object({ banners: z.array(Banner) });
