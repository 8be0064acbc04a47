import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  httpClient,
  startTestStack,
  startUnleashPeer,
  type HttpClient,
  type Reply,
  type TestStack,
  type UnleashPeer,
} from '@bunting/test-stack';

/**
 * Every admin API call Unleash's Terraform provider makes (and the community provider that manages flags), replayed
 * in the providers' order with their headers against Bunting and against a running Unleash 8.2. Where Unleash's
 * open-source server answers the route, Bunting must answer the same status with every field Unleash gives; the
 * routes only Unleash's enterprise edition serves (open source answers 404) must answer as the provider expects.
 */
let stack: TestStack;
let peer: UnleashPeer;

beforeAll(async () => {
  [stack, peer] = await Promise.all([startTestStack(), startUnleashPeer()]);
}, 180_000);
afterAll(async () => {
  await stack?.dispose();
  await peer?.stop();
});

const providerHeaders = {
  'user-agent': 'Terraform-Provider-Unleash/0.7.1',
  'x-unleash-appname': 'terraform-provider-unleash',
};

/** A call and its answer; `expected` is the status the provider accepts, for routes open-source Unleash lacks. */
type Call = { label: string; reply: Reply; expected?: number };

/** The paths of `theirs` (recursively; an array by its first element) that `ours` lacks or holds as another kind. */
export function missingFields(ours: unknown, theirs: unknown, at = ''): string[] {
  if (theirs === null || theirs === undefined || ours === null) return [];
  if (Array.isArray(theirs)) {
    if (!Array.isArray(ours)) return [`${at} (an array)`];
    return theirs.length > 0 && ours.length > 0 ? missingFields(ours[0], theirs[0], `${at}[0]`) : [];
  }
  if (typeof theirs === 'object') {
    if (typeof ours !== 'object' || Array.isArray(ours)) return [`${at} (an object)`];
    return Object.entries(theirs).flatMap(([key, value]) =>
      key in (ours as object)
        ? missingFields((ours as Record<string, unknown>)[key], value, `${at}.${key}`)
        : [`${at}.${key}`],
    );
  }
  return typeof ours === typeof theirs ? [] : [`${at} (a ${typeof theirs})`];
}

/**
 * The providers' calls, resource by resource: create, read, update, delete. `enterprise` marks the routes Unleash's
 * open-source server does not have. Flags live in the default project, which both servers have.
 */
async function replay(api: HttpClient): Promise<Call[]> {
  const calls: Call[] = [];
  const call = async (label: string, method: string, path: string, body?: unknown, expected?: number) => {
    const reply = await api.call(method, path, body);
    calls.push({ label: `${label}: ${method} ${path}`, reply, ...(expected === undefined ? {} : { expected }) });
    return reply;
  };
  // The status each of these is checked against in the provider's code (Unleash/terraform-provider-unleash).
  const enterprise = (label: string, method: string, path: string, body: unknown, expected: number) =>
    call(label, method, path, body, expected);

  // user (and its data source)
  const user = await call('user', 'POST', '/api/admin/user-admin', {
    name: 'Terra Form',
    email: 'terra@example.com',
    username: 'terra',
    rootRole: 3,
    sendEmail: false,
  });
  const userId = user.body?.id as number;
  await call('user', 'GET', `/api/admin/user-admin/${userId}`);
  await call('user', 'PUT', `/api/admin/user-admin/${userId}`, {
    name: 'Terra Formed',
    email: 'terra@example.com',
    rootRole: 2,
  });
  await call('user data source', 'GET', '/api/admin/user-admin/search?q=terra');

  // group (and its data source)
  const group = await enterprise(
    'group',
    'POST',
    '/api/admin/groups',
    { name: 'tf-group', description: 'made by Terraform', users: [{ user: { id: userId } }] },
    201,
  );
  const groupId = group.body?.id as number;
  await enterprise('group', 'GET', `/api/admin/groups/${groupId}`, undefined, 200);
  await enterprise(
    'group',
    'PUT',
    `/api/admin/groups/${groupId}`,
    { name: 'tf-group', description: 'changed by Terraform', users: [{ user: { id: userId } }] },
    200,
  );
  await enterprise('group data source', 'GET', '/api/admin/groups', undefined, 200);

  // project: created, its settings, found in the list, updated
  await enterprise('project', 'POST', '/api/admin/projects', { id: 'tfproj', name: 'TF', description: 'x' }, 201);
  await enterprise(
    'project',
    'PUT',
    '/api/admin/projects/tfproj/settings',
    { mode: 'protected', defaultStickiness: 'userId', featureLimit: 10 },
    200,
  );
  await call('project', 'GET', '/api/admin/projects');
  await enterprise('project', 'PUT', '/api/admin/projects/tfproj', { name: 'TF2', description: 'y' }, 200);

  // api_token: created, found in the list, expiry changed, deleted
  const token = await call('api_token', 'POST', '/api/admin/api-tokens', {
    tokenName: 'tf-token',
    type: 'client',
    environment: 'development',
    projects: ['*'],
  });
  const secret = encodeURIComponent(token.body?.secret as string);
  await call('api_token', 'GET', '/api/admin/api-tokens');
  await call('api_token', 'PUT', `/api/admin/api-tokens/${secret}`, { expiresAt: '2099-01-01T00:00:00.000Z' });
  await call('api_token', 'DELETE', `/api/admin/api-tokens/${secret}`);

  // role (and its data source): a project role, given to the user and the group in the project below
  const role = await enterprise(
    'role',
    'POST',
    '/api/admin/roles',
    { name: 'tf-role', description: 'made by Terraform', type: 'custom', permissions: [{ name: 'CREATE_FEATURE' }] },
    200,
  );
  const roleId = role.body?.id as number;
  await enterprise('role', 'GET', `/api/admin/roles/${roleId}`, undefined, 200);
  await enterprise(
    'role',
    'PUT',
    `/api/admin/roles/${roleId}`,
    { name: 'tf-role', description: 'changed by Terraform', type: 'custom', permissions: [{ name: 'UPDATE_FEATURE' }] },
    200,
  );
  await enterprise('role data source', 'GET', '/api/admin/roles', undefined, 200);

  // project_access: the project's whole access set, then read back
  await enterprise(
    'project_access',
    'PUT',
    '/api/admin/projects/tfproj/access',
    { roles: [{ id: roleId, users: [userId], groups: [groupId] }] },
    200,
  );
  await enterprise('project_access', 'GET', '/api/admin/projects/tfproj/access', undefined, 200);

  // service_account and its tokens
  const account = await enterprise(
    'service_account',
    'POST',
    '/api/admin/service-account',
    { name: 'tf-sa', username: 'tf-sa', rootRole: 2 },
    201,
  );
  const accountId = account.body?.id as number;
  await enterprise('service_account', 'GET', '/api/admin/service-account', undefined, 200);
  await enterprise(
    'service_account',
    'PUT',
    `/api/admin/service-account/${accountId}`,
    { name: 'tf-sa2', rootRole: 3 },
    200,
  );
  const accountToken = await enterprise(
    'service_account_token',
    'POST',
    `/api/admin/service-account/${accountId}/token`,
    { description: 'tf', expiresAt: '2099-01-01T00:00:00.000Z' },
    201,
  );
  await enterprise('service_account_token', 'GET', `/api/admin/service-account/${accountId}/token`, undefined, 200);
  const tokenPath = `/api/admin/service-account/${accountId}/token/${accountToken.body?.id as number}`;
  await enterprise('service_account_token', 'DELETE', tokenPath, undefined, 200);
  await enterprise('service_account', 'DELETE', `/api/admin/service-account/${accountId}`, undefined, 200);

  // oidc and saml: read, set, and (on destroy) switched off
  const oidc = {
    enabled: true,
    discoverUrl: 'https://idp.example.com/.well-known/openid-configuration',
    clientId: 'terraform',
    secret: 'terraform-secret',
    autoCreate: false,
    defaultRootRole: 'Viewer',
  };
  await enterprise('oidc', 'GET', '/api/admin/auth/oidc/settings', undefined, 200);
  await enterprise('oidc', 'POST', '/api/admin/auth/oidc/settings', oidc, 200);
  await enterprise('oidc', 'POST', '/api/admin/auth/oidc/settings', { ...oidc, enabled: false }, 200);
  await enterprise('saml', 'GET', '/api/admin/auth/saml/settings', undefined, 200);
  await enterprise('saml', 'POST', '/api/admin/auth/saml/settings', { enabled: false }, 200);

  // context_field
  await call('context_field', 'POST', '/api/admin/context', {
    name: 'tfctx',
    description: 'made by Terraform',
    stickiness: false,
    legalValues: [{ value: 'a' }],
  });
  await call('context_field', 'GET', '/api/admin/context/tfctx');
  await call('context_field', 'PUT', '/api/admin/context/tfctx', {
    name: 'tfctx',
    description: 'changed by Terraform',
    stickiness: true,
    legalValues: [],
  });
  await call('context_field', 'DELETE', '/api/admin/context/tfctx');

  // environment and project_environment: added with change requests on; on destroy the provider switches them off,
  // then takes the environment out of the project and deletes it
  await enterprise('environment', 'POST', '/api/admin/environments', { name: 'tfenv', type: 'test' }, 201);
  await enterprise('environment', 'GET', '/api/admin/environments/tfenv', undefined, 200);
  await enterprise(
    'environment',
    'PUT',
    '/api/admin/environments/update/tfenv',
    { type: 'production', sortOrder: 5 },
    200,
  );
  await enterprise(
    'project_environment',
    'POST',
    '/api/admin/projects/tfproj/environments',
    { environment: 'tfenv' },
    200,
  );
  const tfenvConfig = '/api/admin/projects/tfproj/environments/tfenv/change-requests/config';
  await enterprise(
    'project_environment',
    'PUT',
    tfenvConfig,
    { changeRequestsEnabled: true, requiredApprovals: 1 },
    204,
  );
  await call('project_environment', 'GET', '/api/admin/environments/project/default');
  await enterprise('project_environment', 'GET', '/api/admin/environments/project/tfproj', undefined, 200);
  await enterprise('project_environment', 'GET', '/api/admin/projects/tfproj/change-requests/config', undefined, 200);
  await enterprise(
    'project_environment',
    'PUT',
    tfenvConfig,
    { changeRequestsEnabled: false, requiredApprovals: 0 },
    204,
  );
  await enterprise('project_environment', 'DELETE', '/api/admin/projects/tfproj/environments/tfenv', undefined, 200);
  await enterprise('environment', 'DELETE', '/api/admin/environments/tfenv', undefined, 200);

  // permission data source
  await enterprise('permission data source', 'GET', '/api/admin/permissions', undefined, 200);

  // the community provider's flags, strategies, switches, tags and feature types
  const flag = '/api/admin/projects/default/features/tf-flag';
  await call('feature', 'POST', '/api/admin/projects/default/features', {
    name: 'tf-flag',
    type: 'release',
    description: 'made by Terraform',
    impressionData: false,
  });
  await call('feature', 'GET', flag);
  await call('feature', 'PUT', flag, { type: 'experiment', description: 'changed', impressionData: true });
  const strategies = `${flag}/environments/development/strategies`;
  const rollout = (percent: string) => ({
    name: 'flexibleRollout',
    parameters: { rollout: percent, stickiness: 'default', groupId: 'tf-flag' },
    constraints: [{ contextName: 'userId', operator: 'IN', values: ['ada'] }],
  });
  const strategy = await call('feature strategy', 'POST', strategies, rollout('50'));
  const strategyId = strategy.body?.id as string;
  await call('feature strategy', 'GET', `${strategies}/${strategyId}`);
  await call('feature strategy', 'PUT', `${strategies}/${strategyId}`, rollout('60'));
  await call('feature environment', 'POST', `${flag}/environments/development/on`);
  await call('feature environment', 'POST', `${flag}/environments/development/off`);
  await call('feature strategy', 'DELETE', `${strategies}/${strategyId}`);
  await call('feature tag', 'POST', '/api/admin/features/tf-flag/tags', { type: 'simple', value: 'terraform' });
  await call('feature tag', 'GET', '/api/admin/features/tf-flag/tags');
  await call('feature tag', 'DELETE', '/api/admin/features/tf-flag/tags/simple/terraform');
  await call('feature types', 'GET', '/api/admin/feature-types');
  await call('feature', 'DELETE', flag);
  await call('feature', 'DELETE', '/api/admin/archive/tf-flag');

  // destroy, in reverse dependency order
  await enterprise('project', 'DELETE', '/api/admin/projects/tfproj', undefined, 200);
  await enterprise('group', 'DELETE', `/api/admin/groups/${groupId}`, undefined, 200);
  await enterprise('role', 'DELETE', `/api/admin/roles/${roleId}`, undefined, 200);
  await call('user', 'DELETE', `/api/admin/user-admin/${userId}`);
  return calls;
}

describe("Unleash's Terraform provider against Bunting and Unleash 8.2", () => {
  let ours: Call[];
  let theirs: Call[];
  beforeAll(async () => {
    ours = await replay(httpClient(stack.url, { ...providerHeaders, authorization: stack.adminToken }));
    theirs = await replay(httpClient(peer.url, { ...providerHeaders, authorization: peer.adminToken }));
  }, 120_000);

  it('answers every open-source call with Unleash’s status and every field of its answer', () => {
    const differences = ours.flatMap((call, index) => {
      const reference = theirs[index]!;
      if (call.expected !== undefined) return [];
      if (call.reply.status !== reference.reply.status)
        return [`${call.label}: ${call.reply.status}, Unleash ${reference.reply.status} ${reference.reply.text}`];
      const missing = missingFields(call.reply.body, reference.reply.body);
      return missing.length > 0 ? [`${call.label}: lacks ${missing.join(', ')}`] : [];
    });
    expect(differences).toEqual([]);
  });

  it('answers every enterprise call with the status the provider checks for', () => {
    const failed = ours
      .filter((call) => call.expected !== undefined && call.reply.status !== call.expected)
      .map((call) => `${call.label}: ${call.reply.status}, the provider wants ${call.expected}: ${call.reply.text}`);
    expect(failed).toEqual([]);
  });

  it('holds what the provider set, read back as the provider reads it', () => {
    const answer = (label: string) => ours.find((call) => call.label === label)!.reply.body;
    const projects = answer('project: GET /api/admin/projects').projects as { id: string; mode: string }[];
    expect(projects.find((project) => project.id === 'tfproj')).toMatchObject({ mode: 'protected' });
    // The provider maps users and groups to the roles listing them: the role holds exactly the user and the group.
    const access = answer('project_access: GET /api/admin/projects/tfproj/access') as {
      roles: { id: number }[];
      users: { id: number; roles: number[] }[];
      groups: { id: number; roles: number[] }[];
    };
    const roleId = answer('role: POST /api/admin/roles').id as number;
    expect(access.roles.map((role) => role.id)).toContain(roleId);
    expect(access.users.filter((user) => user.roles.includes(roleId)).map((user) => user.id)).toEqual([
      answer('user: POST /api/admin/user-admin').id,
    ]);
    expect(access.groups.filter((group) => group.roles.includes(roleId)).map((group) => group.id)).toEqual([
      answer('group: POST /api/admin/groups').id,
    ]);
    const config = answer('project_environment: GET /api/admin/projects/tfproj/change-requests/config') as {
      environment: string;
      changeRequestEnabled: boolean;
      requiredApprovals: number | null;
    }[];
    expect(config.find((entry) => entry.environment === 'tfenv')).toMatchObject({
      changeRequestEnabled: true,
      requiredApprovals: 1,
    });
  });
});
