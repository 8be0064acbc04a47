import { z } from 'zod';
import { CreateApiToken } from './api-tokens.ts';
import { FrontendToggle } from './client-api.ts';
import { CreateEnvironment } from './environments.ts';
import { ErrorBody } from './errors.ts';
import { CreateFeature } from './features.ts';
import { CreateProject } from './projects.ts';
import { UpsertSegment } from './segments.ts';
import { CreateFeatureStrategy } from './strategies.ts';

/**
 * Examples the API document shows beside the most used bodies and answers (kept in zod's registry, which the
 * document generator reads). The console never imports this module, so its bundle carries none of it.
 */
const EXAMPLES: [z.ZodType, unknown][] = [
  [
    CreateFeature,
    { name: 'new-checkout', type: 'release', description: 'The redesigned checkout', impressionData: false },
  ],
  [
    CreateFeatureStrategy,
    {
      name: 'flexibleRollout',
      parameters: { rollout: '25', stickiness: 'default', groupId: 'new-checkout' },
      constraints: [{ contextName: 'country', operator: 'IN', values: ['NO', 'SE'] }],
    },
  ],
  [CreateProject, { id: 'payments', name: 'Payments', description: 'Everything that takes money' }],
  [CreateEnvironment, { name: 'staging', type: 'test' }],
  [
    CreateApiToken,
    { tokenName: 'checkout-backend', type: 'client', environment: 'production', projects: ['payments'] },
  ],
  [
    UpsertSegment,
    { name: 'beta-testers', constraints: [{ contextName: 'userId', operator: 'IN', values: ['ada', 'grace'] }] },
  ],
  [
    FrontendToggle,
    {
      name: 'new-checkout',
      enabled: true,
      impressionData: false,
      variant: { name: 'disabled', enabled: false, feature_enabled: true, featureEnabled: true },
    },
  ],
  [
    ErrorBody,
    { id: '4f1c2a9e-30', name: 'NotFoundError', message: 'Could not find feature new-checkout in project payments' },
  ],
];

export function registerExamples(): void {
  // Not written as z.globalRegistry.add(...): the edge's build takes calls on `z` for pure schema-building and would
  // drop one whose result is unused (launcher/scripts/build-edge.ts).
  const registry = z.globalRegistry;
  for (const [schema, example] of EXAMPLES) registry.add(schema, { ...registry.get(schema), examples: [example] });
}
