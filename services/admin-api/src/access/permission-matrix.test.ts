import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient, loginAs, startTestStack, type HttpClient, type TestStack } from '@bunting/test-stack';

/**
 * Roles against routes: every principal tries every route; each answer is either success or 403 NoAccessError
 * naming the permission, as the table says.
 */
let stack: TestStack;
const principals: Record<string, HttpClient> = {};

const A = 'an-admin',
  E = 'editor',
  V = 'viewer',
  M = 'member-alpha',
  O = 'owner-alpha',
  S = 'segment-keeper',
  D = 'dev-toggler',
  T = 'admin-token',
  C = 'client-token',
  F = 'frontend-token';
const ALL = [A, E, V, M, O, S, D, T, C, F];

type Row = {
  route: string;
  permission: string;
  allowed: string[];
  call: (client: HttpClient, who: string) => Promise<{ status: number; body: any }>;
};

const slug = (who: string) => who.replace(/[^a-z]/g, '');
const matrix: Row[] = [
  {
    route: 'GET /api/admin/projects',
    permission: 'READ',
    allowed: [A, E, V, M, O, S, D, T],
    call: (c) => c.get('/api/admin/projects'),
  },
  {
    route: 'GET /api/admin/events',
    permission: 'READ',
    allowed: [A, E, V, M, O, S, D, T],
    call: (c) => c.get('/api/admin/events'),
  },
  {
    route: 'POST feature in alpha',
    permission: 'CREATE_FEATURE',
    allowed: [A, E, M, O, T],
    call: (c, who) => c.post('/api/admin/projects/alpha/features', { name: `a-${slug(who)}` }),
  },
  {
    route: 'POST feature in beta',
    permission: 'CREATE_FEATURE',
    allowed: [A, E, T],
    call: (c, who) => c.post('/api/admin/projects/beta/features', { name: `b-${slug(who)}` }),
  },
  {
    route: 'toggle alpha flag in development',
    permission: 'UPDATE_FEATURE_ENVIRONMENT',
    allowed: [A, E, M, O, D, T],
    call: async (c) => {
      const on = await c.post('/api/admin/projects/alpha/features/alpha-flag/environments/development/on');
      if (on.status !== 200) return on;
      return c.post('/api/admin/projects/alpha/features/alpha-flag/environments/development/off');
    },
  },
  {
    route: 'toggle alpha flag in production',
    permission: 'UPDATE_FEATURE_ENVIRONMENT',
    allowed: [A, E, M, O, T],
    call: async (c) => {
      const on = await c.post('/api/admin/projects/alpha/features/alpha-flag/environments/production/on');
      if (on.status !== 200) return on;
      return c.post('/api/admin/projects/alpha/features/alpha-flag/environments/production/off');
    },
  },
  {
    route: 'PUT alpha flag metadata',
    permission: 'UPDATE_FEATURE',
    allowed: [A, E, M, O, D, T],
    call: (c, who) => c.put('/api/admin/projects/alpha/features/alpha-flag', { description: who }),
  },
  {
    route: 'POST segment',
    permission: 'CREATE_SEGMENT',
    allowed: [A, E, S, T],
    call: (c, who) => c.post('/api/admin/segments', { name: `seg-${slug(who)}`, constraints: [] }),
  },
  {
    route: 'POST user',
    permission: 'ADMIN',
    allowed: [A, T],
    call: (c, who) => c.post('/api/admin/user-admin', { username: `u-${slug(who)}`, rootRole: 3 }),
  },
  {
    route: 'POST project',
    permission: 'CREATE_PROJECT',
    allowed: [A, E, T],
    call: (c, who) => c.post('/api/admin/projects', { id: `p-${slug(who)}`, name: who }),
  },
  {
    route: 'PUT project alpha',
    permission: 'UPDATE_PROJECT',
    allowed: [A, O, T],
    call: (c, who) => c.put('/api/admin/projects/alpha', { description: who }),
  },
  {
    route: 'POST client API token',
    permission: 'CREATE_CLIENT_API_TOKEN',
    allowed: [A, E, T],
    call: (c, who) => c.post('/api/admin/api-tokens', { tokenName: who, type: 'client', environment: 'development' }),
  },
  {
    route: 'GET API tokens',
    permission: 'READ_API_TOKEN',
    allowed: [A, E, T],
    call: (c) => c.get('/api/admin/api-tokens'),
  },
  {
    route: 'POST environment',
    permission: 'CREATE_ENVIRONMENT',
    allowed: [A, T],
    call: (c, who) => c.post('/api/admin/environments', { name: `env-${slug(who)}`, type: 'test' }),
  },
  {
    route: 'POST project access alpha',
    permission: 'PROJECT_USER_ACCESS_WRITE',
    allowed: [A, O, T],
    call: (c) => c.post('/api/admin/projects/alpha/access', { roles: [5], users: [1] }),
  },
  {
    route: 'POST role',
    permission: 'ADMIN',
    allowed: [A, T],
    call: (c, who) => c.post('/api/admin/roles', { name: `role-${slug(who)}`, type: 'custom', permissions: [] }),
  },
  {
    route: 'GET OIDC settings',
    permission: 'ADMIN',
    allowed: [A, T],
    call: (c) => c.get('/api/admin/auth/oidc/settings'),
  },
];

beforeAll(async () => {
  stack = await startTestStack({
    env: {
      INIT_CLIENT_API_TOKENS: 'default:development.matrix-client',
      INIT_FRONTEND_API_TOKENS: 'default:development.matrix-frontend',
    },
  });
  const { admin } = stack;
  await admin.post('/api/admin/projects', { id: 'alpha', name: 'Alpha' });
  await admin.post('/api/admin/projects', { id: 'beta', name: 'Beta' });
  await admin.post('/api/admin/projects/alpha/features', { name: 'alpha-flag' });
  const segmentKeeper = await admin.post('/api/admin/roles', {
    name: 'Segment keeper',
    type: 'root-custom',
    permissions: [{ name: 'CREATE_SEGMENT' }],
  });
  const devToggler = await admin.post('/api/admin/roles', {
    name: 'Dev toggler',
    type: 'custom',
    permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' }, { name: 'UPDATE_FEATURE' }],
  });
  const users: [string, number][] = [
    [A, 1],
    [E, 2],
    [V, 3],
    [M, 3],
    [O, 3],
    [S, segmentKeeper.body.id],
    [D, 3],
  ];
  for (const [who, rootRole] of users) {
    const created = await admin.post('/api/admin/user-admin', { username: who, rootRole, password: `${who}-password` });
    if (who === M) await admin.put(`/api/admin/projects/alpha/users/${created.body.id}/roles`, { roles: [5] });
    if (who === O) await admin.put(`/api/admin/projects/alpha/users/${created.body.id}/roles`, { roles: [4] });
    if (who === D)
      await admin.put(`/api/admin/projects/alpha/users/${created.body.id}/roles`, { roles: [devToggler.body.id] });
    principals[who] = await loginAs(stack.url, who, `${who}-password`);
  }
  principals[T] = stack.admin;
  principals[C] = httpClient(stack.url, { authorization: 'default:development.matrix-client' });
  principals[F] = httpClient(stack.url, { authorization: 'default:development.matrix-frontend' });
});
afterAll(() => stack?.dispose());

describe('permission matrix', () => {
  for (const row of matrix) {
    it(`${row.route} (${row.permission}): allowed for ${row.allowed.join(', ')}`, async () => {
      for (const who of ALL) {
        const reply = await row.call(principals[who]!, who);
        if (row.allowed.includes(who)) {
          expect(reply.status, `${who} on ${row.route}: ${JSON.stringify(reply.body)}`).toBeLessThan(300);
        } else {
          expect(reply.status, `${who} on ${row.route}`).toBe(403);
          expect(reply.body.name).toBe('NoAccessError');
          expect(reply.body.message).toContain(row.permission);
        }
      }
    });
  }

  it('names the environment when an environment permission is missing', async () => {
    const reply = await principals[D]!.post('/api/admin/projects/alpha/features/alpha-flag/environments/production/on');
    expect(reply.body.message).toContain('production');
  });
});
