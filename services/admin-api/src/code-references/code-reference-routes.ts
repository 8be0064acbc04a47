import {
  CleanupCandidates,
  CleanupCandidatesQuery,
  CodeReferencesRecorded,
  CodeReferenceUpload,
  FlagCodeReferences,
} from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import { z } from 'zod';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { requireFeature } from '../feature-state/feature-lookup.ts';
import { codeReferenceService } from './code-reference-service.ts';

const FlagParams = z.object({ projectId: z.string().min(1).max(255), featureName: z.string().min(1).max(255) });

/** Code references: a CI job's scan of a branch (`bunting code-refs`), and where code uses one flag. */
export function codeReferenceRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  app.post(
    '/api/admin/code-references',
    {
      schema: {
        summary: "Record a scan of one branch's code references to flags (it replaces that branch's last scan)",
        body: CodeReferenceUpload,
        response: { 200: CodeReferencesRecorded },
      },
    },
    async (request) => {
      // A CI job's credential: one that may change flags anywhere (a service account or admin token).
      const principal = allow(request, Permission.UPDATE_FEATURE);
      return changes.run(principal, (change) => codeReferenceService.record(change, request.body));
    },
  );
  app.get(
    '/api/admin/cleanup-candidates',
    {
      schema: {
        summary: 'Flags that look safe to remove: unused in scanned code, not evaluated for `days`, completed or stale',
        querystring: CleanupCandidatesQuery,
        response: { 200: CleanupCandidates },
      },
    },
    async (request) => {
      const { days, project } = request.query;
      allowRead(request, project ? { project } : {});
      return codeReferenceService.cleanupCandidates(db, days, project ?? null);
    },
  );
  app.get(
    '/api/admin/code-references/flags',
    {
      schema: {
        summary: "The flags one branch's last scan found references to (the scanner's start for finding removals)",
        querystring: z.object({ repository: z.string().min(1).max(500), branch: z.string().min(1).max(255) }),
        response: { 200: z.object({ flags: z.array(z.string()) }) },
      },
    },
    async (request) => {
      allowRead(request);
      return { flags: await codeReferenceService.flagsOf(db, request.query.repository, request.query.branch) };
    },
  );
  app.get(
    '/api/admin/projects/:projectId/features/:featureName/code-references',
    {
      schema: {
        summary: 'Where code uses a flag, per repository and branch, and where its last reference was removed',
        params: FlagParams,
        response: { 200: FlagCodeReferences },
      },
    },
    async (request) => {
      const { projectId, featureName } = request.params;
      allowRead(request, { project: projectId });
      await requireFeature(db, projectId, featureName, { allowArchived: true });
      return codeReferenceService.forFlag(db, featureName);
    },
  );
}
