import { z } from 'zod';
import { FeatureName } from './features.ts';

// Where code uses a flag, as `bunting code-refs` finds it in a checkout in CI: paths, lines and (if the team allows)
// a few lines around each. Source never leaves the machine beyond that.

export const CodeReference = z.object({
  flag: FeatureName,
  path: z.string().min(1).max(1000),
  line: z.number().int().min(1),
  /** The lines around the reference, the reference's own among them; empty when the team sends none. */
  context: z.array(z.string().max(500)).max(11).default([]),
});
export type CodeReference = z.infer<typeof CodeReference>;

/** A flag whose last reference in the branch went, and the commit that removed it. */
export const CodeReferenceExtinction = z.object({
  flag: FeatureName,
  commit: z.string().min(1).max(100),
  author: z.string().max(255).nullable(),
  removedAt: z.iso.datetime({ offset: true }),
});
export type CodeReferenceExtinction = z.infer<typeof CodeReferenceExtinction>;

/** One scan of one branch: it replaces what that branch had. */
export const CodeReferenceUpload = z.object({
  /** As people find it: an address or host/owner/name (github.com/acme/shop). */
  repository: z.string().trim().min(1).max(500),
  branch: z.string().trim().min(1).max(255),
  commit: z.string().trim().min(1).max(100),
  references: z.array(CodeReference).max(20_000),
  extinctions: z.array(CodeReferenceExtinction).max(5_000).default([]),
});
export type CodeReferenceUpload = z.infer<typeof CodeReferenceUpload>;

// Answers
export const CodeReferencesRecorded = z.object({ references: z.number().int(), flags: z.number().int() });
export const FlagCodeReferences = z.object({
  references: z.array(
    CodeReference.extend({
      repository: z.string(),
      branch: z.string(),
      commit: z.string(),
      /** A link to the line where the repository is on a host Bunting knows (GitHub, GitLab, Bitbucket). */
      url: z.string().nullable(),
      recordedAt: z.string(),
    }),
  ),
  extinctions: z.array(CodeReferenceExtinction.extend({ repository: z.string(), branch: z.string() })),
});
export type FlagCodeReferences = z.infer<typeof FlagCodeReferences>;

/** Flags that look safe to remove: no code uses them, no SDK evaluated them lately, and their work is done or old. */
export const CleanupCandidates = z.object({
  days: z.number().int(),
  /** Repository branches scanned so far: with none, "no references" says nothing yet. */
  scannedBranches: z.number().int(),
  flags: z.array(
    z.object({
      name: z.string(),
      project: z.string(),
      createdAt: z.string(),
      lastSeenAt: z.string().nullable(),
      lifecycleStage: z.string(),
      /** Why it is listed, in words: "completed (kept)", "marked stale", "potentially stale". */
      reason: z.string(),
    }),
  ),
});
export const CleanupCandidatesQuery = z.object({
  /** Days without an evaluation by any SDK. */
  days: z.coerce.number().int().min(0).max(3650).default(30),
  project: z.string().min(1).max(255).optional(),
});
