import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NoContent } from '@bunting/contracts';
import { NotFoundError, createHttpServer, createLogger, registerApiDocs, type HttpServer } from '@bunting/platform';
import { checkAnswersAgainstDocument } from './answer-check.ts';

/** The check every stack runs, on a server of its own whose routes answer right and wrong on purpose. */
let app: HttpServer;
let check: ReturnType<typeof checkAnswersAgainstDocument>;
const Thing = z.object({ name: z.string(), count: z.number() });

beforeAll(async () => {
  app = createHttpServer({ log: createLogger('silent', 'answer-check'), bodyLimit: 1024 });
  await registerApiDocs(app, { version: 'test' });
  check = checkAnswersAgainstDocument(app);
  app.get(
    '/things/:name',
    { schema: { params: z.object({ name: z.string() }), response: { 200: Thing } } },
    async (request) => {
      if (request.params.name === 'missing') throw new NotFoundError('no such thing');
      return { name: request.params.name, count: 1 };
    },
  );
  // Pre-encoded text is not re-serialised, so a wrong shape reaches the wire.
  app.get('/encoded', { schema: { response: { 200: Thing } } }, async (_request, reply) => {
    await reply.type('application/json').send('{"name":"x","count":"many"}' as never);
  });
  app.get(
    '/leaky',
    { schema: { response: { 200: Thing } } },
    async () => ({ name: 'x', count: 1, secret: 'kept back' }) as z.infer<typeof Thing>,
  );
  app.get(
    '/miscounted',
    { schema: { response: { 200: Thing } } },
    async () => ({ name: 'x', count: '7' }) as unknown as z.infer<typeof Thing>,
  );
  app.post('/accepted', { schema: { response: { 201: NoContent } } }, async (_request, reply) =>
    reply.code(202 as 201).send(),
  );
  await app.ready();
});
afterAll(() => app?.close());

const violationsOf = async (method: 'GET' | 'POST', url: string) => {
  const before = check.violations().length;
  const reply = await app.inject({ method, url });
  return { status: reply.statusCode, found: check.violations().slice(before) };
};

describe('checking answers against the OpenAPI document', () => {
  it('passes answers that match their operation, refusals included', async () => {
    expect(await violationsOf('GET', '/things/lamp')).toEqual({ status: 200, found: [] });
    expect(await violationsOf('GET', '/things/missing')).toEqual({ status: 404, found: [] });
  });

  it('reports a body the schema refuses', async () => {
    const { found } = await violationsOf('GET', '/encoded');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/GET \/encoded -> 200: data\/count must be number/);
  });

  it('reports a field the handler gave and the schema dropped', async () => {
    const { status, found } = await violationsOf('GET', '/leaky');
    expect(status).toBe(200);
    expect(found).toEqual(['GET /leaky -> 200: its schema changes what the route gave: .secret left out']);
  });

  it('reports a value written otherwise than the handler gave it', async () => {
    const { found } = await violationsOf('GET', '/miscounted');
    expect(found).toEqual(['GET /miscounted -> 200: its schema changes what the route gave: .count "7" written as 7']);
  });

  it('reports a success status the operation does not list', async () => {
    const { status, found } = await violationsOf('POST', '/accepted');
    expect(status).toBe(202);
    expect(found[0]).toMatch(/POST \/accepted -> 202: the document lists no such status/);
  });
});
