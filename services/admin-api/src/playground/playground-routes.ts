import type { HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allowRead } from '../access/guard.ts';
import {
  PlaygroundAnswer,
  AdvancedPlaygroundAnswer,
  AdvancedPlaygroundRequest,
  PlaygroundRequest,
} from '@bunting/contracts';
import { advancedPlayground, playground } from './playground.ts';

export function playgroundRoutes(app: HttpServer, { db }: Pick<AdminDeps, 'db'>) {
  app.post(
    '/api/admin/playground',
    {
      schema: {
        summary: 'Evaluate every flag for a context in one environment, with the reasons',
        body: PlaygroundRequest,
        response: { 200: PlaygroundAnswer },
      },
    },
    async (request) => {
      allowRead(request);
      return playground(db, request.body);
    },
  );

  app.post(
    '/api/admin/playground/advanced',
    {
      schema: {
        summary: 'Evaluate flags for combinations of context values across environments',
        body: AdvancedPlaygroundRequest,
        response: { 200: AdvancedPlaygroundAnswer },
      },
    },
    async (request) => {
      allowRead(request);
      return advancedPlayground(db, request.body);
    },
  );
}
