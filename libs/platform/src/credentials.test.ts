import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialView, type Principal } from '@bunting/contracts';
import { isolate, TEST_NATS_URL, type Isolation } from '@bunting/testing';
import { createRemoteVerifier, type CredentialVerifier } from './credentials.ts';
import { createLogger } from './logger.ts';
import { closeMessaging, connectMessaging, type Messaging } from './messaging.ts';
import { answerView } from './published-views.ts';

const log = createLogger('silent', 'credentials-test');
let isolation: Isolation;
let messaging: Messaging;
let verifier: CredentialVerifier;
const asked: string[] = [];
let failing = false;
const principal: Principal = {
  kind: 'api-token',
  key: 'token:1',
  name: 'sdk',
  userId: null,
  tokenType: 'client',
  environment: 'development',
  projects: ['*'],
  permissions: [],
  projectPermissions: {},
  environmentPermissions: {},
  rootRole: null,
};

beforeAll(async () => {
  isolation = await isolate();
  messaging = await connectMessaging(TEST_NATS_URL, isolation.namespace, log);
  // Stands in for admin-api: counts the questions, knows one token.
  answerView(messaging, CredentialView, async (request) => {
    asked.push(request.authorization ?? '');
    if (failing) throw new Error('database down');
    return request.authorization === 'known' ? principal : null;
  });
  verifier = createRemoteVerifier(messaging, { ttlMs: 60_000 });
});

afterAll(async () => {
  verifier?.stop();
  await closeMessaging(messaging);
  await isolation?.cleanup();
});

const check = (authorization: string) => verifier.verify({ authorization, session: null });

describe('the credential cache', () => {
  it('asks admin-api once for a credential and answers from memory after that, peek included', async () => {
    expect(verifier.peek?.({ authorization: 'known', session: null })).toBeUndefined();
    expect(await check('known')).toEqual(principal);
    expect(await check('known')).toEqual(principal);
    expect(await check('unknown')).toBeNull();
    expect(asked).toEqual(['known', 'unknown']);
    expect(verifier.peek?.({ authorization: 'known', session: null })).toEqual(principal);
  });

  it('forgets every answer when a token event arrives, so a revoked credential stops working at once', async () => {
    asked.length = 0;
    messaging.nc.publish(messaging.names.eventSubject('api-token-deleted'), '{}');
    await messaging.nc.flush();
    await expect.poll(() => verifier.peek?.({ authorization: 'known', session: null })).toBeUndefined();
    expect(await check('known')).toEqual(principal);
    expect(asked).toEqual(['known']);
  });

  it('answers 503 when admin-api cannot answer, and keeps no such answer', async () => {
    failing = true;
    messaging.nc.publish(messaging.names.eventSubject('api-token-updated'), '{}');
    await messaging.nc.flush();
    await expect.poll(() => verifier.peek?.({ authorization: 'known', session: null })).toBeUndefined();
    await expect(check('known')).rejects.toMatchObject({ status: 503, errorName: 'ServiceUnavailableError' });
    failing = false;
    expect(await check('known')).toEqual(principal);
  });
});
