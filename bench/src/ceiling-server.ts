import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

/**
 * The ceiling: a bare Fastify route sending a precomputed body, the most any route of ours could do.
 * Served both as a string (Fastify encodes it per response) and as a ready Buffer, and with the same mix of
 * sizes as /api/frontend's answers in the bench (`?empty=1` for the users who match no flag). The same routes take
 * POST with a JSON body, as OFREP's bulk evaluation does: its ceiling receives the same request (Fastify parses the
 * body) and sends the same answer.
 */
const body = readFileSync(process.argv[2]!, 'utf8');
const buffer = Buffer.from(body);
const app = Fastify({ logger: false });
for (const method of ['GET', 'POST'] as const) {
  app.route({
    method,
    url: '/ceiling',
    handler: (_request, reply) => {
      reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8').send(body);
    },
  });
  app.route({
    method,
    url: '/ceiling-buffer',
    handler: (_request, reply) => {
      reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8').send(buffer);
    },
  });
}
const emptyBody = '{"toggles":[]}';
app.get('/ceiling-mix', (request, reply) => {
  const empty = (request.query as { empty?: string }).empty === '1';
  reply
    .header('cache-control', 'no-cache')
    .type('application/json; charset=utf-8')
    .send(empty ? emptyBody : body);
});
const address = await app.listen({ port: Number(process.argv[3] ?? 0), host: '127.0.0.1' });
console.log(address);
