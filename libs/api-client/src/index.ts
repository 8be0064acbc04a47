export type { components, paths } from './bunting-api.generated.d.ts';
export { ApiRefused, answer, buntingClient, type ApiFetch, type BuntingClient } from './client.ts';
