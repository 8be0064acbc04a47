import { serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FeatureList, Feature } from '@bunting/contracts';
import { answerSerializerCompiler } from '@bunting/platform';
import { startTestStack } from '@bunting/test-stack';
import { round } from './stats.ts';

/**
 * What serialising answers through their zod schemas costs (issue 16): two admin answers taken from a real stack
 * (a project's 500 flags, one flag with strategies in three environments) are turned into JSON 2,000 times each,
 * interleaved in five rounds, by plain JSON.stringify (what an untyped route did), by zod's serializer (check and
 * strip, then stringify: what typed routes used before) and by fast-json-stringify compiled from the same schemas'
 * JSON Schema (what every typed route uses now, libs/platform/src/answer-serializer.ts).
 */
const FLAGS = Number(process.env.SERIALISATION_FLAGS ?? 500);
const ROUNDS = 5;
const ITERATIONS = 2000;

const stack = await startTestStack();
try {
  const admin = stack.admin;
  for (let index = 0; index < FLAGS; index += 1) {
    const name = `flag-${String(index).padStart(4, '0')}`;
    await admin.post('/api/admin/projects/default/features', {
      name,
      description: 'a flag with a description',
      impressionData: index % 2 === 0,
    });
    if (index % 25 === 0)
      await admin.post(`/api/admin/projects/default/features/${name}/environments/development/strategies`, {
        name: 'flexibleRollout',
        parameters: { rollout: '50', stickiness: 'default', groupId: name },
      });
  }
  const detailed = 'flag-0000';
  for (const environment of ['development', 'production']) {
    await admin.post(`/api/admin/projects/default/features/${detailed}/environments/${environment}/strategies`, {
      name: 'flexibleRollout',
      parameters: { rollout: '25', stickiness: 'userId', groupId: detailed },
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['a', 'b', 'c'] }],
    });
  }
  const list = (await admin.get('/api/admin/projects/default/features')).body;
  const one = (await admin.get(`/api/admin/projects/default/features/${detailed}`)).body;

  const cases: { name: string; payload: unknown; schema: z.ZodType }[] = [
    { name: `project's flags (${FLAGS})`, payload: list, schema: FeatureList },
    { name: 'one flag', payload: one, schema: Feature },
  ];
  console.log(`| answer | bytes | JSON.stringify µs | zod serializer µs | fast-json-stringify (used now) µs |`);
  console.log(`|---|---|---|---|---|`);
  for (const { name, payload, schema } of cases) {
    const zod = serializerCompiler({ schema, method: 'GET', url: '/bench' }) as (data: unknown) => string;
    const compiled = answerSerializerCompiler({ schema, method: 'GET', url: '/bench', httpStatus: '200' });
    const ways: [string, (data: unknown) => string][] = [
      ['plain', (data) => JSON.stringify(data)],
      ['zod', zod],
      ['fast', compiled],
    ];
    // Each way's text, to see that they say the same (fast-json-stringify writes only what the schema lists).
    const lengths = ways.map(([way, serialise]) => `${way} ${serialise(payload).length}`).join(', ');
    const micros = new Map<string, number[]>(ways.map(([way]) => [way, []]));
    for (let round_ = 0; round_ < ROUNDS; round_ += 1) {
      for (const [way, serialise] of ways) {
        const started = performance.now();
        for (let index = 0; index < ITERATIONS; index += 1) serialise(payload);
        micros.get(way)!.push(((performance.now() - started) * 1000) / ITERATIONS);
      }
    }
    const median = (values: number[]) => round([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!, 1);
    console.log(
      `| ${name} (${lengths}) | ${JSON.stringify(payload).length} | ${median(micros.get('plain')!)} | ${median(micros.get('zod')!)} | ${median(micros.get('fast')!)} |`,
    );
  }
} finally {
  await stack.dispose();
}
