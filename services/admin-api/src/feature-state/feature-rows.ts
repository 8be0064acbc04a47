import { createdFeature, featureEventState, featureStore } from './feature-store.ts';

/**
 * Flags' own rows, for the features slice that creates, changes, archives and deletes them (and writes the events);
 * other slices read through feature-lookup.ts.
 */
export const featureRows = {
  ...featureStore,
  /** The fields the reference answers feature creation with. */
  created: createdFeature,
  /** The feature fields events carry as data/preData. */
  eventState: featureEventState,
};
