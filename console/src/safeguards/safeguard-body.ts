import type { BodyOf } from '../api/endpoint.ts';

/** A safeguard as the API takes it: the impact metric it watches and its threshold or comparison. */
export type SafeguardBody = BodyOf<
  '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/safeguards',
  'put'
>;
