import type { ClientFeature } from '@bunting/contracts';
import { PreparedContext, compileEngine, evaluateFeature } from '@bunting/evaluation';

/**
 * `npm run bench:evaluation`: the cost of evaluating one /api/frontend request's flags in-process, without HTTP:
 * the bench's 200 flags (flexibleRollout, one IN constraint of 10 values, two strategy variants) for 1,000 users
 * inside the constraint, in five rounds. What the SDK edge spends per request before it writes the answer.
 */
const FLAGS = Number(process.env.EVALUATION_FLAGS ?? 200);
const features: ClientFeature[] = Array.from({ length: FLAGS }, (_, index) => ({
  name: `bench-flag-${index}`,
  type: 'release',
  enabled: true,
  project: 'default',
  stale: false,
  impressionData: false,
  strategies: [{
    name: 'flexibleRollout',
    parameters: { rollout: String(30 + (index % 70)), stickiness: 'default', groupId: `bench-flag-${index}` },
    constraints: [{ contextName: 'country', operator: 'IN', values: ['NO', 'SE', 'DK', 'FI', 'IS', 'DE', 'NL', 'BE', 'FR', 'ES'] }],
    variants: [
      { name: 'control', weight: 500, weightType: 'variable', stickiness: 'default' },
      { name: 'treatment', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: `{"flag":${index}}` } },
    ],
  }],
  variants: [],
  dependencies: [],
}) as unknown as ClientFeature);
const engine = compileEngine({ features, segments: [] });
const contexts = Array.from({ length: 1000 }, (_, index) => ({ userId: `user-${index}`, appName: 'bench', environment: 'development', remoteAddress: '127.0.0.1', properties: { country: 'NO' } }));

let sink = 0;
function request(raw: (typeof contexts)[number]) {
  const context = new PreparedContext(raw);
  const compiled = engine.features;
  for (let index = 0; index < compiled.length; index += 1) {
    const result = evaluateFeature(compiled[index]!, context);
    if (result.enabled) sink += result.slot;
  }
}

const REQUESTS = 200_000;
for (let round = 0; round < 6; round += 1) {
  const started = process.hrtime.bigint();
  for (let index = 0; index < REQUESTS; index += 1) request(contexts[index % contexts.length]!);
  const ns = Number(process.hrtime.bigint() - started) / REQUESTS;
  if (round > 0) console.log(`round ${round}: ${(ns / 1000).toFixed(2)} µs per request (${(ns / FLAGS).toFixed(1)} ns per flag)`);
}
if (sink === 42) console.log('');
