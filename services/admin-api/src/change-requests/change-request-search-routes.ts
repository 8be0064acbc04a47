import { ChangeRequestSearchAnswer, ChangeRequestSearchQuery, OPEN_CHANGE_REQUEST_STATES } from '@bunting/contracts';
import type { HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allowRead } from '../access/guard.ts';
import { changeRequestStore } from './change-request-store.ts';
import { searchItems } from './change-request-views.ts';

const CLOSED = ['Applied', 'Cancelled', 'Rejected'];
const ids = (filter: string | undefined) => (filter ? filter.split(':')[1]!.split(',').map(Number) : undefined);

/** GET /api/admin/search/change-requests: by author, by requested reviewer, open or closed; newest first, paged. */
export function changeRequestSearchRoutes(app: HttpServer, { db }: Pick<AdminDeps, 'db'>) {
  app.get(
    '/api/admin/search/change-requests',
    {
      schema: {
        summary: 'Search change requests by creator, reviewer and state',
        querystring: ChangeRequestSearchQuery,
        response: { 200: ChangeRequestSearchAnswer },
      },
    },
    async (request) => {
      allowRead(request);
      const { createdBy, requestedApproverId, state, offset, limit } = request.query;
      const filter = {
        ...(createdBy ? { createdBy: ids(createdBy)! } : {}),
        ...(requestedApproverId ? { reviewer: ids(requestedApproverId)! } : {}),
        ...(state ? { states: state === 'IS:open' ? OPEN_CHANGE_REQUEST_STATES : CLOSED } : {}),
      };
      const [rows, total] = await Promise.all([
        changeRequestStore.list(db, { ...filter, limit: limit ?? 50, offset: offset ?? 0 }),
        changeRequestStore.count(db, filter),
      ]);
      return { changeRequests: await searchItems(db, rows), total };
    },
  );
}
