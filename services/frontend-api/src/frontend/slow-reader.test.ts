import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, httpClient, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
const frontendToken = 'default:development.slow-reader-token';
const base = '/api/admin/projects/default/features';
const FLAGS = 50;

/** Flags whose variants (each with a 1.4 kB payload) follow the userId: about 1.9 kB of answer per flag. */
async function addFlags(from: number, to: number) {
  for (let index = from; index < to; index += 1) {
    const name = `wide-${index}`;
    await stack.admin.post(base, { name });
    await stack.admin.put(
      `${base}/${name}/environments/development/variants`,
      ['a', 'b'].map((variant) => ({
        name: variant,
        weight: 500,
        weightType: 'variable',
        stickiness: 'default',
        payload: { type: 'string', value: `${variant}${index}`.repeat(700) },
      })),
    );
    await stack.admin.post(`${base}/${name}/environments/development/on`);
  }
}

beforeAll(async () => {
  stack = await startTestStack({ env: { INIT_FRONTEND_API_TOKENS: frontendToken } });
  await addFlags(0, FLAGS);
  // The flags reach the SDK edge through the configuration feed, a moment after the admin calls answer.
  await eventually(async () =>
    expect(
      (await httpClient(stack.url, { authorization: frontendToken }).get('/api/frontend?userId=x')).body.toggles,
    ).toHaveLength(FLAGS),
  );
}, 60_000);
afterAll(() => stack?.dispose());

/** The bodies of the whole pipelined HTTP/1.1 answers read so far (each with a content-length). */
function bodiesOf(data: Buffer, count: number): string[] {
  const bodies: string[] = [];
  let position = 0;
  while (bodies.length < count) {
    const headEnd = data.indexOf('\r\n\r\n', position);
    if (headEnd < 0) break;
    const head = data.subarray(position, headEnd).toString('latin1');
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1]);
    if (headEnd + 4 + length > data.length) break;
    bodies.push(data.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8'));
    position = headEnd + 4 + length;
  }
  return bodies;
}

describe('answers to a client that reads slowly', () => {
  // Answers of ~95 kB are cut from a shared slab; answers over 128 kB have buffers of their own, kept for reuse.
  it(
    'arrive whole while other clients are answered meanwhile',
    () => slowReaderGetsWholeAnswers(FLAGS, 12_000_000),
    60_000,
  );

  it('arrive whole when each answer is too large for the slab', async () => {
    await addFlags(FLAGS, FLAGS + 60);
    await eventually(async () =>
      expect(
        (await httpClient(stack.url, { authorization: frontendToken }).get('/api/frontend?userId=x')).body.toggles,
      ).toHaveLength(FLAGS + 60),
    );
    await slowReaderGetsWholeAnswers(FLAGS + 60, 30_000_000);
  }, 90_000);
});

async function slowReaderGetsWholeAnswers(flags: number, atLeastBytes: number) {
  const frontend = httpClient(stack.url, { authorization: frontendToken });
  const slowUsers = Array.from({ length: 160 }, (_, index) => `slow-${index}`);
  const { port } = new URL(stack.url);
  const socket = connect(Number(port), '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.pause();
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  // 160 answers (15 MB and more) asked for at once and not read: the kernel's buffers fill and Node keeps the rest to write.
  socket.write(
    slowUsers
      .map(
        (user) =>
          `GET /api/frontend?userId=${user} HTTP/1.1\r\nhost: localhost\r\nauthorization: ${frontendToken}\r\n\r\n`,
      )
      .join(''),
  );
  // Other users' answers, with other bytes, are made and sent while the slow client's wait.
  for (let round = 0; round < 20; round += 1) {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => frontend.get(`/api/frontend?userId=fast-${round}-${index}`)),
    );
    for (const answer of answers) expect(answer.body.toggles).toHaveLength(flags);
  }
  let received = 0;
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    received += chunk.length;
  });
  socket.resume();
  const expected = await Promise.all(
    slowUsers.map(async (user) => (await frontend.get(`/api/frontend?userId=${user}`)).text),
  );
  const total = expected.reduce((sum, body) => sum + Buffer.byteLength(body), 0);
  // The bodies, then their heads: parsed once all the bodies' bytes are in, again for each later chunk.
  while (received < total || bodiesOf(Buffer.concat(chunks), slowUsers.length).length < slowUsers.length)
    await new Promise((resolve) => socket.once('data', resolve));
  socket.destroy();
  const bodies = bodiesOf(Buffer.concat(chunks), slowUsers.length);
  expect(total).toBeGreaterThan(atLeastBytes);
  expect(bodies).toHaveLength(slowUsers.length);
  for (const [index, body] of bodies.entries()) expect(body, slowUsers[index]).toBe(expected[index]);
}
