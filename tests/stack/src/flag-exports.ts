/**
 * Flags as an export for `/api/admin/features-batch/import`: each a gradual rollout to half the users (sticky on the
 * default stickiness, grouped by its name), on in the environment imported into.
 */
export function rolloutExport(names: readonly string[], project: string) {
  return {
    features: names.map((name) => ({ name, type: 'release', project })),
    tagTypes: [],
    featureStrategies: names.map((name) => ({
      name: 'flexibleRollout',
      featureName: name,
      parameters: { rollout: '50', stickiness: 'default', groupId: name },
      constraints: [],
    })),
    featureEnvironments: names.map((name) => ({ name, featureName: name, enabled: true })),
  };
}
