import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
  await stack.admin.post('/api/admin/projects', { id: 'alpha', name: 'Alpha' });
  for (let index = 0; index < 110; index += 1) {
    await stack.admin.post('/api/admin/projects/alpha/features', {
      name: `alpha-${index}`,
      description: index === 7 ? 'needle in data' : null,
    });
  }
  await stack.admin.post('/api/admin/projects/default/features', { name: 'in-default' });
  // The last change made: once it is in the log, every earlier one is (the log stores in stream order).
  await eventually(async () => (await stack.admin.get('/api/admin/events/in-default')).body.events.length === 1, {
    timeoutMs: 20_000,
  });
});
afterAll(() => stack?.dispose());

describe('GET /api/admin/events', () => {
  it('returns the last 100 events, newest first, with version 1 and the full total', async () => {
    const reply = await stack.admin.get('/api/admin/events');
    expect(reply.status).toBe(200);
    expect(reply.body.version).toBe(1);
    expect(reply.body.events).toHaveLength(100);
    expect(reply.body.totalEvents).toBeGreaterThanOrEqual(113);
    const ids = reply.body.events.map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(reply.body.events[0]).toMatchObject({
      type: 'feature-created',
      featureName: 'in-default',
      project: 'default',
      createdBy: 'admin',
      createdByUserId: -42,
    });
    for (const field of [
      'id',
      'createdAt',
      'type',
      'createdBy',
      'createdByUserId',
      'environment',
      'project',
      'featureName',
      'data',
      'preData',
      'tags',
    ]) {
      expect(reply.body.events[0]).toHaveProperty(field);
    }
  });

  it('returns every event of a project, none for an unknown project', async () => {
    const alpha = await stack.admin.get('/api/admin/events?project=alpha');
    expect(alpha.body.events.length).toBe(111);
    expect(alpha.body.totalEvents).toBe(111);
    expect(alpha.body.events.every((e: { project: string }) => e.project === 'alpha')).toBe(true);
    const unknown = await stack.admin.get('/api/admin/events?project=nope');
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ version: 1, events: [], totalEvents: 0 });
  });

  it('answers 401 without credentials', async () => {
    const reply = await stack.anonymous.get('/api/admin/events');
    expect(reply.status).toBe(401);
    expect(reply.body.name).toBe('AuthenticationRequired');
  });
});

describe('POST /api/admin/events/search', () => {
  it('filters by type, project and feature, case-sensitively', async () => {
    const byType = await stack.admin.post('/api/admin/events/search', { type: 'project-created' });
    expect(byType.body.events.map((e: { project: string }) => e.project)).toEqual(['alpha']);
    const byFeature = await stack.admin.post('/api/admin/events/search', { feature: 'alpha-3' });
    expect(byFeature.body.events).toHaveLength(1);
    expect((await stack.admin.post('/api/admin/events/search', { feature: 'ALPHA-3' })).body.events).toHaveLength(0);
    const byProject = await stack.admin.post('/api/admin/events/search', {
      project: 'default',
      type: 'feature-created',
    });
    expect(byProject.body.events.map((e: { featureName: string }) => e.featureName)).toEqual(['in-default']);
  });

  it('matches free text against type, creator and data', async () => {
    const inData = await stack.admin.post('/api/admin/events/search', { query: 'needle' });
    expect(inData.body.events.map((e: { featureName: string }) => e.featureName)).toEqual(['alpha-7']);
    const byCreator = await stack.admin.post('/api/admin/events/search', { query: 'unleash_system', limit: 5 });
    expect(byCreator.body.events.length).toBeGreaterThan(0);
    const byTypeText = await stack.admin.post('/api/admin/events/search', { query: 'project-cre' });
    expect(byTypeText.body.events.map((e: { type: string }) => e.type)).toEqual(['project-created']);
    const anyCase = await stack.admin.post('/api/admin/events/search', { query: 'NeEdLe In' });
    expect(anyCase.body.events.map((e: { featureName: string }) => e.featureName)).toEqual(['alpha-7']);
    // LIKE's wildcards are plain characters in a query.
    expect((await stack.admin.post('/api/admin/events/search', { query: 'need%in' })).body.totalEvents).toBe(0);
    expect((await stack.admin.post('/api/admin/events/search', { query: 'needle_in' })).body.totalEvents).toBe(0);
  });

  it('combines free text with the other filters', async () => {
    const created = await stack.admin.post('/api/admin/events/search', {
      query: 'needle',
      type: 'feature-created',
      project: 'alpha',
    });
    expect(created.body).toMatchObject({ totalEvents: 1, events: [{ featureName: 'alpha-7' }] });
    expect(
      (await stack.admin.post('/api/admin/events/search', { query: 'needle', project: 'default' })).body.totalEvents,
    ).toBe(0);
    const searched = await stack.admin.get('/api/admin/search/events?query=needle&type=IS:feature-created');
    expect(searched.body).toMatchObject({ total: 1, events: [{ featureName: 'alpha-7' }] });
  });

  it('counts every free-text match, on a page, past the last page and with none', async () => {
    const every = await stack.admin.post('/api/admin/events/search', { query: 'alpha' });
    const total = every.body.totalEvents;
    const rest = await stack.admin.post('/api/admin/events/search', { query: 'alpha', offset: 100 });
    expect(rest.body.totalEvents).toBe(total);
    expect(every.body.events.length + rest.body.events.length).toBe(total);
    expect(total).toBeGreaterThan(3);
    const page = await stack.admin.post('/api/admin/events/search', { query: 'alpha', limit: 2, offset: 1 });
    expect(page.body).toMatchObject({ totalEvents: total });
    expect(page.body.events.map((e: { id: number }) => e.id)).toEqual(
      every.body.events.slice(1, 3).map((e: { id: number }) => e.id),
    );
    const past = await stack.admin.post('/api/admin/events/search', { query: 'alpha', offset: total + 5 });
    expect(past.body).toEqual({ version: 1, events: [], totalEvents: total });
    const none = await stack.admin.post('/api/admin/events/search', { query: 'no such text anywhere' });
    expect(none.body).toEqual({ version: 1, events: [], totalEvents: 0 });
  });

  it('pages with limit (1..100, default 100) and offset', async () => {
    const all = await stack.admin.post('/api/admin/events/search', {});
    expect(all.body.events).toHaveLength(100);
    const page = await stack.admin.post('/api/admin/events/search', { project: 'alpha', limit: 10, offset: 10 });
    expect(page.body.events).toHaveLength(10);
    expect(page.body.events[0].id).toBe(
      all.body.events.filter((e: { project: string }) => e.project === 'alpha')[10].id,
    );
    for (const body of [{ limit: 0 }, { limit: 101 }, { limit: 'ten' }, { type: 42 }]) {
      const reply = await stack.admin.post('/api/admin/events/search', body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.name).toBe('ValidationError');
    }
  });
});

describe('GET /api/admin/events paging', () => {
  it('pages with limit and offset, and refuses out-of-range values with 400', async () => {
    const page = await stack.admin.get('/api/admin/events?limit=5&offset=1');
    expect(page.status).toBe(200);
    expect(page.body.events).toHaveLength(5);
    for (const query of ['limit=0', 'limit=-1', 'limit=100000', 'offset=-3', 'limit=abc']) {
      const refused = await stack.admin.get(`/api/admin/events?${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.body.name).toBe('ValidationError');
    }
  });
});

describe('GET /api/admin/search/events', () => {
  it("takes Unleash's operators: IS and IS_ANY_OF on lists, IS on dates", async () => {
    const isType = await stack.admin.get('/api/admin/search/events?type=IS:feature-created&project=IS:default');
    expect(isType.status).toBe(200);
    expect(isType.body.events.map((e: { featureName: string }) => e.featureName)).toEqual(['in-default']);
    const plain = await stack.admin.get('/api/admin/search/events?type=feature-created&project=default');
    expect(plain.body.total).toBe(1);
    const anyOf = await stack.admin.get(
      '/api/admin/search/events?feature=IS_ANY_OF:alpha-1,alpha-2,in-default&limit=10',
    );
    expect(anyOf.body.events.map((e: { featureName: string }) => e.featureName).sort()).toEqual([
      'alpha-1',
      'alpha-2',
      'in-default',
    ]);
    const today = new Date().toISOString().slice(0, 10);
    const dated = await stack.admin.get(
      `/api/admin/search/events?from=IS:${today}&to=IS:${today}&project=IS:alpha&limit=1`,
    );
    expect(dated.status).toBe(200);
    expect(dated.body.total).toBe(111);
    expect((await stack.admin.get('/api/admin/search/events?from=IS:2999-01-01')).body.total).toBe(0);
    const byCreator = await stack.admin.get('/api/admin/search/events?createdBy=IS:-42&limit=1');
    expect(byCreator.body.total).toBeGreaterThanOrEqual(112);
    for (const query of ['from=IS:yesterday', 'from=IS_ANY_OF:2024-01-01', 'limit=0', 'id=IS:abc']) {
      expect((await stack.admin.get(`/api/admin/search/events?${query}`)).status, query).toBe(400);
    }
  });
});

describe('the consumer is idempotent on the event uuid', () => {
  it('stores an event published twice under different message ids once', async () => {
    const { randomUUID } = await import('node:crypto');
    const { js, names } = stack.messaging;
    const event = {
      uuid: randomUUID(),
      type: 'tag-created',
      createdAt: new Date().toISOString(),
      createdBy: 'test',
      createdByUserId: null,
      environment: null,
      project: null,
      featureName: null,
      data: { type: 'simple', value: 'dup-check' },
      preData: null,
      tags: [],
    };
    await js.publish(names.eventSubject('tag-created'), JSON.stringify(event), { msgID: randomUUID() });
    await js.publish(names.eventSubject('tag-created'), JSON.stringify(event), { msgID: randomUUID() });
    await js.publish(names.eventSubject('tag-created'), JSON.stringify({ nonsense: true }), { msgID: randomUUID() });
    const marker = randomUUID();
    await js.publish(
      names.eventSubject('tag-created'),
      JSON.stringify({ ...event, uuid: marker, data: { value: 'marker' } }),
      { msgID: randomUUID() },
    );
    // The marker first: once it is stored, everything published before it is (one stream, read in order). Asked the
    // other way round, the events could be stored between the two questions and the first answer miss them.
    const found = await eventually(async () => {
      const marked = await stack.admin.post('/api/admin/events/search', { query: 'marker' });
      if (marked.body.events.length !== 1) return false;
      return (await stack.admin.post('/api/admin/events/search', { query: 'dup-check' })).body.events;
    });
    expect(found).toHaveLength(1);
    // The kept size of the log (what the unfiltered list says) is what counting every row says: the repeat added none.
    await eventually(async () => {
      const kept = (await stack.admin.get('/api/admin/events')).body.totalEvents;
      const counted = (await stack.admin.get('/api/admin/search/events?from=IS:2000-01-01&limit=1')).body.total;
      return kept === counted;
    });
  });
});

// Last in the file: it deletes the events stream under the running stack.
describe('a stream made anew (NATS rebuilt, as after restoring the database)', () => {
  it("stores the new stream's events, which are numbered from 1 again", async () => {
    const { randomUUID } = await import('node:crypto');
    const { js, jsm, names } = stack.messaging;
    const before = await jsm.streams.info(names.eventsStream);
    expect(before.state.last_seq).toBeGreaterThan(100);
    await jsm.streams.delete(names.eventsStream);
    await jsm.streams.add({ ...before.config });
    const marker = randomUUID();
    const event = {
      uuid: marker,
      type: 'tag-created',
      createdAt: new Date().toISOString(),
      createdBy: 'test',
      createdByUserId: null,
      environment: null,
      project: null,
      featureName: null,
      data: { type: 'simple', value: 'after-rebuild' },
      preData: null,
      tags: [],
    };
    const published = await js.publish(names.eventSubject('tag-created'), JSON.stringify(event), {
      msgID: randomUUID(),
    });
    expect(published.seq).toBe(1);
    await eventually(
      async () =>
        (await stack.admin.post('/api/admin/events/search', { query: 'after-rebuild' })).body.events.length === 1,
      { timeoutMs: 45_000 },
    );
  }, 60_000);
});
