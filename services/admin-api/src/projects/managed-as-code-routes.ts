import { ManagedAsCode, UpdateManagedAsCode } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import { z } from 'zod';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { managedAsCodeService } from './managed-as-code-service.ts';

const ProjectParams = z.object({ projectId: z.string().min(1).max(255) });

/** Whether a project is managed as code, where its files are, and whose tokens apply them (a Bunting setting). */
export function managedAsCodeRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  const path = '/api/admin/projects/:projectId/managed-as-code';
  app.get(
    path,
    {
      schema: {
        summary: 'Whether a project is managed as code, where its files are and which service account applies them',
        params: ProjectParams,
        response: { 200: ManagedAsCode },
      },
    },
    async (request) => {
      allowRead(request, { project: request.params.projectId });
      return managedAsCodeService.get(db, request.params.projectId);
    },
  );
  app.put(
    path,
    {
      schema: {
        summary:
          'Mark a project as managed as code (hand edits of its flags and segments are then refused) or turn that off',
        params: ProjectParams,
        body: UpdateManagedAsCode,
        response: { 200: ManagedAsCode },
      },
    },
    async (request) => {
      const principal = allow(request, Permission.UPDATE_PROJECT, { project: request.params.projectId });
      return changes.run(principal, (change) =>
        managedAsCodeService.put(change, request.params.projectId, request.body),
      );
    },
  );
}
