import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

/**
 * The ceiling: a bare Fastify route sending a precomputed body, the most any route of ours could do.
 * Served both as a string (Fastify encodes it per response) and as a ready Buffer.
 */
const body = readFileSync(process.argv[2]!, 'utf8');
const buffer = Buffer.from(body);
const app = Fastify({ logger: false });
app.get('/ceiling', (_request, reply) => {
  reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8').send(body);
});
app.get('/ceiling-buffer', (_request, reply) => {
  reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8').send(buffer);
});
const address = await app.listen({ port: Number(process.argv[3] ?? 0), host: '127.0.0.1' });
console.log(address);
