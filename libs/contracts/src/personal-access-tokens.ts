import { z } from 'zod';

export const Pat = z.object({
  id: z.number().int().min(1),
  secret: z.string().optional(),
  createdAt: z.string(),
  seenAt: z.string().nullable(),
  userId: z.number().int(),
  description: z.string(),
  expiresAt: z.string(),
});
export type Pat = z.infer<typeof Pat>;
export const Pats = z.object({ pats: z.array(Pat) });
export const CreatePat = z.object({
  description: z.string().min(1).max(255),
  expiresAt: z.iso.datetime({ offset: true }),
});
