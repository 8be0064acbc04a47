import { AccessHistory, AccessHistoryQuery, textAnswer, type AccessEntry } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow } from '../access/guard.ts';
import { accessHistoryStore } from './access-history-store.ts';

const CSV_COLUMNS: (keyof AccessEntry)[] = [
  'at',
  'userId',
  'name',
  'method',
  'action',
  'outcome',
  'detail',
  'address',
  'userAgent',
  'uuid',
];

/** A CSV field: quoted when it holds a separator, a quote or a line break; a leading = + - @ defused for spreadsheets. */
function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The sign-in history, for admins: filtered and paged as JSON, or whole (as filtered) as CSV. */
export function accessHistoryRoutes(app: HttpServer, { db }: Pick<AdminDeps, 'db'>) {
  app.get(
    '/api/admin/access-history',
    {
      schema: {
        summary: 'Sign-in history: attempts, credentials granted and revoked ones used, newest first',
        querystring: AccessHistoryQuery,
        response: { 200: AccessHistory },
      },
    },
    async (request) => {
      allow(request, Permission.ADMIN);
      return accessHistoryStore.list(db, request.query);
    },
  );

  app.get(
    '/api/admin/access-history/export',
    {
      schema: {
        summary: 'Sign-in history as CSV, with the same filters (at most 100,000 rows)',
        querystring: AccessHistoryQuery.omit({ limit: true, offset: true }),
        response: { 200: textAnswer('text/csv', 'The sign-in history, one row per entry') },
      },
    },
    async (request, reply) => {
      allow(request, Permission.ADMIN);
      const { entries } = await accessHistoryStore.list(db, { ...request.query, limit: 100_000, offset: 0 });
      const rows = [
        CSV_COLUMNS.join(','),
        ...entries.map((entry) => CSV_COLUMNS.map((column) => csvField(entry[column])).join(',')),
      ];
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="sign-in-history.csv"')
        .send(`${rows.join('\r\n')}\r\n`);
    },
  );
}
