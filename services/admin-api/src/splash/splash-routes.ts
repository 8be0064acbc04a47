import { SplashSeen } from '@bunting/contracts';
import { z } from 'zod';
import { ValidationError, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allowRead } from '../access/guard.ts';
import { splashStore } from './splash-store.ts';

const SplashParams = z.object({ id: z.string().min(1).max(100) });

/**
 * POST /api/admin/splash/:id: the signed-in user dismissed one of the UI's one-time screens (Unleash's web UI sends it
 * when a tip is closed). A preference of the person, not of the instance: no event, as in Unleash.
 */
export function splashRoutes(app: HttpServer, { changes }: Pick<AdminDeps, 'changes'>) {
  app.post(
    '/api/admin/splash/:id',
    {
      schema: {
        summary: 'Mark a splash screen as seen by the caller',
        params: SplashParams,
        response: { 200: SplashSeen },
      },
    },
    async (request) => {
      const principal = allowRead(request);
      if (principal.userId === null)
        throw new ValidationError('Only a user can dismiss a screen; an API token has no screens.');
      const userId = principal.userId;
      await changes.run(principal, (change) => splashStore.markSeen(change.tx, userId, request.params.id));
      return { userId: principal.userId, splashId: request.params.id, seen: true };
    },
  );
}
