import semver from 'semver';

/**
 * The oldest version of each server SDK that Unleash does not report as outdated (the facts of Unleash's own
 * list): an SDK older than these lacks fixes the server expects, and the admin pages call it out.
 */
const MINIMUM_VERSIONS: Readonly<Record<string, string>> = {
  'unleash-client-node': '5.3.2',
  'unleash-client-java': '9.0.0',
  'unleash-client-go': '4.1.0',
  'unleash-client-python': '5.9.2',
  'unleash-client-ruby': '5.0.0',
  'unleash-client-dotnet': '4.1.3',
  'unleash-client-php': '1.13.0',
};

/** Whether an SDK's "<name>:<version>" names a known SDK older than its minimum; unknown or unparsable ones are not. */
export function isOutdatedSdk(sdkVersion: string | null): boolean {
  if (!sdkVersion) return false;
  const parts = sdkVersion.split(':');
  if (parts.length !== 2) return false;
  const [name, version] = parts as [string, string];
  const minimum = MINIMUM_VERSIONS[name];
  return minimum !== undefined && semver.valid(version) !== null && semver.lt(version, minimum);
}

/** The outdated SDK versions among an installation's instances, each with the applications that run it. */
export function outdatedSdks(instances: readonly { appName: string; sdkVersion: string | null }[]) {
  const apps = new Map<string, Set<string>>();
  for (const { appName, sdkVersion } of instances) {
    if (!isOutdatedSdk(sdkVersion)) continue;
    apps.set(sdkVersion!, (apps.get(sdkVersion!) ?? new Set()).add(appName));
  }
  return [...apps]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([sdkVersion, names]) => ({ sdkVersion, applications: [...names].sort() }));
}
