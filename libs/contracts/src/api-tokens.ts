import { z } from 'zod';

export const ApiTokenType = z.enum(['client', 'admin', 'frontend', 'backend']);
export type ApiTokenType = z.infer<typeof ApiTokenType>;

/** Unleash accepts the type in any letter case and treats "backend" as the client type. */
const TokenTypeInput = z
  .string()
  .transform((value) => value.toLowerCase())
  .pipe(ApiTokenType);

export const CreateApiToken = z
  .object({
    tokenName: z.string().min(1).max(255).optional(),
    username: z.string().min(1).max(255).optional(),
    type: TokenTypeInput,
    environment: z.string().min(1).max(100).optional(),
    project: z.string().min(1).max(100).optional(),
    projects: z.array(z.string().min(1).max(100)).min(1).max(100).optional(),
    expiresAt: z.iso.datetime({ offset: true }).optional(),
  })
  .refine((body) => body.tokenName !== undefined || body.username !== undefined, {
    message: 'tokenName is required',
    path: ['tokenName'],
  });
export type CreateApiToken = z.infer<typeof CreateApiToken>;

export const UpdateApiToken = z.object({ expiresAt: z.iso.datetime({ offset: true }) });

export const ApiToken = z.object({
  /** Names the token in paths (`id:<id>`) once its secret is no longer shown. */
  id: z.number().int().optional(),
  secret: z.string().nullable().optional(),
  tokenName: z.string(),
  type: ApiTokenType,
  environment: z.string(),
  project: z.string(),
  projects: z.array(z.string()),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  seenAt: z.string().nullable(),
  alias: z.string().nullable(),
  secure: z.boolean().optional(),
});
export type ApiToken = z.infer<typeof ApiToken>;

// Answers: what the routes of this resource send.

/** GET /api/admin/api-tokens */
export const ApiTokenList = z.object({ tokens: z.array(ApiToken) });

/** POST /edge/validate */
export const EdgeTokenValidation = z.object({
  tokens: z.array(
    z.object({
      token: z.string(),
      type: z.enum(['client', 'frontend']),
      projects: z.array(z.string()),
      environment: z.string(),
    }),
  ),
});
