import type { HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allowRead } from '../access/guard.ts';
import { AdvancedPlaygroundRequest, PlaygroundRequest } from '@bunting/contracts';
import { advancedPlayground, playground } from './playground.ts';

export function playgroundRoutes(app: HttpServer, { db }: Pick<AdminDeps, 'db'>) {
  app.post('/api/admin/playground', { schema: { body: PlaygroundRequest } }, async (request) => {
    allowRead(request);
    return playground(db, request.body);
  });

  app.post('/api/admin/playground/advanced', { schema: { body: AdvancedPlaygroundRequest } }, async (request) => {
    allowRead(request);
    return advancedPlayground(db, request.body);
  });
}
