import { describe, expect, it } from 'vitest';
import { isOutdatedSdk, outdatedSdks } from './outdated-sdks.ts';

describe('outdated SDKs', () => {
  it('knows the minimum version of each server SDK and ignores unknown or unparsable ones', () => {
    expect(isOutdatedSdk('unleash-client-node:5.3.1')).toBe(true);
    expect(isOutdatedSdk('unleash-client-node:5.3.2')).toBe(false);
    expect(isOutdatedSdk('unleash-client-java:8.4.0')).toBe(true);
    expect(isOutdatedSdk('unleash-client-python:6.0.0')).toBe(false);
    expect(isOutdatedSdk('unleash-client-node:not-a-version')).toBe(false);
    expect(isOutdatedSdk('unleash-proxy-client-js:1.0.0')).toBe(false);
    expect(isOutdatedSdk('unleash-client-node')).toBe(false);
    expect(isOutdatedSdk(null)).toBe(false);
  });

  it('groups the applications by outdated version', () => {
    expect(
      outdatedSdks([
        { appName: 'web', sdkVersion: 'unleash-client-node:4.0.0' },
        { appName: 'api', sdkVersion: 'unleash-client-node:4.0.0' },
        { appName: 'web', sdkVersion: 'unleash-client-node:4.0.0' },
        { appName: 'jobs', sdkVersion: 'unleash-client-go:4.1.0' },
      ]),
    ).toEqual([{ sdkVersion: 'unleash-client-node:4.0.0', applications: ['api', 'web'] }]);
  });
});
