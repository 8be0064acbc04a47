import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, httpClient, startTestStack, type TestStack } from '@bunting/test-stack';

let stack: TestStack;
const alphaToken = 'alpha:development.outdated-alpha';
const betaToken = 'beta:development.outdated-beta';

beforeAll(async () => {
  stack = await startTestStack({ env: { INIT_CLIENT_API_TOKENS: `${alphaToken},${betaToken}` } });
  for (const id of ['alpha', 'beta']) {
    await stack.admin.post('/api/admin/projects', { id, name: id });
    await stack.admin.post(`/api/admin/projects/${id}/features`, { name: `${id}-flag` });
  }
});
afterAll(() => stack?.dispose());

async function report(token: string, appName: string, sdkVersion: string, flag: string) {
  const sdk = httpClient(stack.url, { authorization: token });
  const now = new Date().toISOString();
  await sdk.post('/api/client/register', {
    appName,
    instanceId: `${appName}-1`,
    sdkVersion,
    strategies: ['default'],
    started: now,
    interval: 10_000,
  });
  await sdk.post('/api/client/metrics', {
    appName,
    instanceId: `${appName}-1`,
    bucket: { start: now, stop: now, toggles: { [flag]: { yes: 1, no: 0 } } },
  });
}

describe('outdated SDKs', () => {
  it('lists SDK versions older than their minimum with the applications running them, for the instance and per project', async () => {
    await report(alphaToken, 'old-node', 'unleash-client-node:4.2.0', 'alpha-flag');
    await report(betaToken, 'old-java', 'unleash-client-java:8.0.0', 'beta-flag');
    await report(betaToken, 'new-node', 'unleash-client-node:6.1.0', 'beta-flag');
    const all = await eventually(async () => {
      const { body } = await stack.admin.get('/api/admin/metrics/sdks/outdated');
      return body.sdks.length === 2 && body;
    });
    expect(all).toEqual({
      sdks: [
        { sdkVersion: 'unleash-client-java:8.0.0', applications: ['old-java'] },
        { sdkVersion: 'unleash-client-node:4.2.0', applications: ['old-node'] },
      ],
    });
    const beta = await eventually(async () => {
      const { body } = await stack.admin.get('/api/admin/projects/beta/sdks/outdated');
      return body.sdks.length > 0 && body;
    });
    expect(beta).toEqual({ sdks: [{ sdkVersion: 'unleash-client-java:8.0.0', applications: ['old-java'] }] });
    const overview = (await stack.admin.get('/api/admin/metrics/applications/old-java/overview')).body;
    expect(overview.environments[0].issues.outdatedSdks).toEqual(['unleash-client-java:8.0.0']);
  });
});
