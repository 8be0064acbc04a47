import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventLogTotalAfterMarker, eventually, startTestStack, type TestStack } from '@bunting/test-stack';

/** Many creates of one name at once: one succeeds, every other answers 409 NameExistsError; one creation event. */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
  await stack.admin.post('/api/admin/tag-types', { name: 'race-type' });
  await stack.admin.post('/api/admin/projects/default/features', { name: 'race-target' });
});
afterAll(() => stack?.dispose());

const ATTEMPTS = 15;
const creates: { what: string; path: string; body: unknown; event: string; created?: number }[] = [
  {
    what: 'flag',
    path: '/api/admin/projects/default/features',
    body: { name: 'raced-flag' },
    event: 'feature-created',
  },
  {
    what: 'project',
    path: '/api/admin/projects',
    body: { id: 'raced-project', name: 'Raced' },
    event: 'project-created',
  },
  {
    what: 'segment',
    path: '/api/admin/segments',
    body: { name: 'raced-segment', constraints: [] },
    event: 'segment-created',
  },
  {
    what: 'environment',
    path: '/api/admin/environments',
    body: { name: 'raced-environment', type: 'test' },
    event: 'environment-created',
  },
  { what: 'context field', path: '/api/admin/context', body: { name: 'racedField' }, event: 'context-field-created' },
  { what: 'tag type', path: '/api/admin/tag-types', body: { name: 'raced-tag-type' }, event: 'tag-type-created' },
  { what: 'tag', path: '/api/admin/tags', body: { type: 'race-type', value: 'raced-tag' }, event: 'tag-created' },
  {
    what: 'strategy',
    path: '/api/admin/strategies',
    body: { name: 'racedStrategy', parameters: [] },
    event: 'strategy-created',
  },
  {
    what: 'role',
    path: '/api/admin/roles',
    body: { name: 'Raced role', type: 'custom', permissions: [] },
    event: 'role-created',
    // Unleash answers a created role with 200 (its Terraform provider expects that).
    created: 200,
  },
  { what: 'group', path: '/api/admin/groups', body: { name: 'raced-group', users: [] }, event: 'group-created' },
  { what: 'user', path: '/api/admin/user-admin', body: { username: 'raced-user', rootRole: 3 }, event: 'user-created' },
  {
    what: 'service account',
    path: '/api/admin/service-account',
    body: { username: 'raced-bot', name: 'Bot', rootRole: 3 },
    event: 'service-account-created',
  },
  {
    what: 'signal endpoint',
    path: '/api/admin/signal-endpoints',
    body: { name: 'raced-endpoint' },
    event: 'signal-endpoint-created',
  },
];

describe('concurrent creates with one name', () => {
  for (const create of creates) {
    it(`${create.what}: one created, the rest 409 NameExistsError`, async () => {
      const replies = await Promise.all(
        Array.from({ length: ATTEMPTS }, () => stack.admin.post(create.path, create.body)),
      );
      const statuses = replies.map((reply) => reply.status);
      expect(
        statuses.filter((status) => status === (create.created ?? 201)),
        JSON.stringify(statuses),
      ).toHaveLength(1);
      expect(
        statuses.filter((status) => status === 409),
        JSON.stringify(replies.map((reply) => reply.body)),
      ).toHaveLength(ATTEMPTS - 1);
      for (const reply of replies.filter((candidate) => candidate.status === 409))
        expect(reply.body.name).toBe('NameExistsError');
    });
  }

  it('records exactly one creation event for each', async () => {
    await eventLogTotalAfterMarker(stack.admin);
    for (const create of creates) {
      const events = await eventually(
        async () =>
          (await stack.admin.post('/api/admin/events/search', { type: create.event })).body.events as {
            data: unknown;
          }[],
      );
      const name = Object.values(create.body as Record<string, unknown>).find(
        (value) => typeof value === 'string' && value.includes('aced'),
      ) as string;
      expect(
        events.filter((event) => JSON.stringify(event.data).includes(name)),
        create.what,
      ).toHaveLength(1);
    }
  });

  it('tags a flag once when the same tag is added many times at once', async () => {
    const replies = await Promise.all(
      Array.from({ length: ATTEMPTS }, () =>
        stack.admin.post('/api/admin/features/race-target/tags', { type: 'race-type', value: 'once' }),
      ),
    );
    expect(replies.every((reply) => reply.status === 201)).toBe(true);
    await eventLogTotalAfterMarker(stack.admin);
    const tagged = (
      await stack.admin.post('/api/admin/events/search', { type: 'feature-tagged', feature: 'race-target' })
    ).body.events;
    expect(tagged).toHaveLength(1);
  });
});
