import type { ClientFeature } from '@bunting/contracts';
import { PlanLane, PreparedContext, compileEngine, evaluateFeature, type Engine } from '@bunting/evaluation';

/**
 * `npm run bench:evaluation`: the cost of evaluating one /api/frontend request's flags in-process, without HTTP:
 * the bench's 200 flags (flexibleRollout, one IN constraint of 10 values, two strategy variants) for 1,000 users
 * inside the constraint, in five rounds, interleaved: through the plan lane the SDK edge uses, flag by flag with
 * simple plans, and with every flag on the general path. What the SDK edge spends per request before it writes the
 * answer.
 */
const FLAGS = Number(process.env.EVALUATION_FLAGS ?? 200);
const features: ClientFeature[] = Array.from(
  { length: FLAGS },
  (_, index) =>
    ({
      name: `bench-flag-${index}`,
      type: 'release',
      enabled: true,
      project: 'default',
      stale: false,
      impressionData: false,
      strategies: [
        {
          name: 'flexibleRollout',
          parameters: { rollout: String(30 + (index % 70)), stickiness: 'default', groupId: `bench-flag-${index}` },
          constraints: [
            {
              contextName: 'country',
              operator: 'IN',
              values: ['NO', 'SE', 'DK', 'FI', 'IS', 'DE', 'NL', 'BE', 'FR', 'ES'],
            },
          ],
          variants: [
            { name: 'control', weight: 500, weightType: 'variable', stickiness: 'default' },
            {
              name: 'treatment',
              weight: 500,
              weightType: 'variable',
              stickiness: 'default',
              payload: { type: 'json', value: `{"flag":${index}}` },
            },
          ],
        },
      ],
      variants: [],
      dependencies: [],
    }) as unknown as ClientFeature,
);
// Flag by flag with simple plans, and with every flag on the general path, to compare them in one process.
const engines = {
  'simple plans': compileEngine({ features, segments: [] }),
  'general path': compileEngine({ features, segments: [] }, { generalOnly: true }),
};
const contexts = Array.from({ length: 1000 }, (_, index) => ({
  userId: `user-${index}`,
  appName: 'bench',
  environment: 'development',
  remoteAddress: '127.0.0.1',
  properties: { country: 'NO' },
}));

let sink = 0;
function flagByFlag(engine: Engine) {
  return (raw: (typeof contexts)[number]) => {
    const context = new PreparedContext(raw);
    const compiled = engine.features;
    for (let index = 0; index < compiled.length; index += 1) {
      const result = evaluateFeature(compiled[index]!, context);
      if (result.enabled) sink += result.slot;
    }
  };
}

// The edge's way: every flag's slot from the plan lane, then the answers by slot.
const laneEngine = compileEngine({ features, segments: [] });
const lane = new PlanLane(laneEngine.features);
const slots = new Int32Array(lane.size);
function throughLane(raw: (typeof contexts)[number]) {
  const context = new PreparedContext(raw);
  lane.slotsOf(context, slots);
  for (let index = 0; index < lane.size; index += 1) if (slots[index]! >= 0) sink += slots[index]!;
}

const ways: Record<string, (raw: (typeof contexts)[number]) => void> = {
  'plan lane': throughLane,
  'simple plans': flagByFlag(engines['simple plans']),
  'general path': flagByFlag(engines['general path']),
};
const REQUESTS = 100_000;
for (let round = 0; round < 6; round += 1) {
  const line: string[] = [];
  for (const [name, request] of Object.entries(ways)) {
    const started = process.hrtime.bigint();
    for (let index = 0; index < REQUESTS; index += 1) request(contexts[index % contexts.length]!);
    const ns = Number(process.hrtime.bigint() - started) / REQUESTS;
    line.push(`${name} ${(ns / 1000).toFixed(2)} µs a request (${(ns / FLAGS).toFixed(1)} ns a flag)`);
  }
  // The first round warms them up.
  if (round > 0) console.log(`round ${round}: ${line.join(', ')}`);
}
if (sink === 42) console.log('');
