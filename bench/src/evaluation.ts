import type { ClientFeature } from '@bunting/contracts';
import { PreparedContext, compileEngine, evaluateFeature, type Engine } from '@bunting/evaluation';

/**
 * `npm run bench:evaluation`: the cost of evaluating one /api/frontend request's flags in-process, without HTTP:
 * the bench's 200 flags (flexibleRollout, one IN constraint of 10 values, two strategy variants) for 1,000 users
 * inside the constraint, in five rounds, with the simple plans the SDK edge uses and with every flag on the general
 * path, interleaved. What the SDK edge spends per request before it writes the answer.
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
// The engine as the SDK edge compiles it, and with every flag on the general path, to compare the two in one process.
const engines = { 'simple plans': compileEngine({ features, segments: [] }), 'general path': compileEngine({ features, segments: [] }, { generalOnly: true }) };
const contexts = Array.from({ length: 1000 }, (_, index) => ({ userId: `user-${index}`, appName: 'bench', environment: 'development', remoteAddress: '127.0.0.1', properties: { country: 'NO' } }));

let sink = 0;
function request(engine: Engine, raw: (typeof contexts)[number]) {
  const context = new PreparedContext(raw);
  const compiled = engine.features;
  for (let index = 0; index < compiled.length; index += 1) {
    const result = evaluateFeature(compiled[index]!, context);
    if (result.enabled) sink += result.slot;
  }
}

const REQUESTS = 100_000;
for (let round = 0; round < 6; round += 1) {
  const line: string[] = [];
  for (const [name, engine] of Object.entries(engines)) {
    const started = process.hrtime.bigint();
    for (let index = 0; index < REQUESTS; index += 1) request(engine, contexts[index % contexts.length]!);
    const ns = Number(process.hrtime.bigint() - started) / REQUESTS;
    line.push(`${name} ${(ns / 1000).toFixed(2)} µs a request (${(ns / FLAGS).toFixed(1)} ns a flag)`);
  }
  // The first round warms both up.
  if (round > 0) console.log(`round ${round}: ${line.join(', ')}`);
}
if (sink === 42) console.log('');
