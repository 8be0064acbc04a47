import { insideUnleash } from './target.ts';

/** Stands in for Unleash's test database: its stores are inside Unleash's process, beyond reach over HTTP. */
export default async function init() {
  return {
    config: insideUnleash('config'),
    rawDatabase: insideUnleash('rawDatabase'),
    stores: insideUnleash('stores'),
    reset: async () => undefined,
    destroy: async () => undefined,
  };
}
