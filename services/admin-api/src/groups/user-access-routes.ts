import { AccessOverview } from '@bunting/contracts';
import type { HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allowRead } from '../access/guard.ts';
import { userReadModel } from '../users/user-read-model.ts';
import { groupService } from './group-service.ts';

/** Everyone access can be given to, people and groups (Unleash's user-admin/access, for pickers). */
export function userAccessRoutes(app: HttpServer, { db }: Pick<AdminDeps, 'db'>) {
  app.get(
    '/api/admin/user-admin/access',
    {
      schema: { summary: 'Every user and group, for choosing whom to give access', response: { 200: AccessOverview } },
    },
    async (request) => {
      allowRead(request);
      const [people, { groups }] = await Promise.all([userReadModel.people(db), groupService.list(db)]);
      return {
        users: people.map((user) => ({
          id: user.id,
          name: user.name,
          username: user.username,
          ...(user.email ? { email: user.email } : {}),
          accountType: user.isService ? 'Service Account' : 'User',
        })),
        groups: groups.map((group) => ({
          id: group.id,
          name: group.name,
          userCount: group.userCount,
          rootRole: group.rootRole,
        })),
      };
    },
  );
}
