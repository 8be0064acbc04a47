import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import { z } from 'zod';
import { Redirect, SYSTEM_ACTOR, textAnswer } from '@bunting/contracts';
import {
  AuthenticationRequired,
  NoAccessError,
  acceptFormBodies,
  escapeHtml,
  type HttpServer,
  type Redis,
} from '@bunting/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Change } from '../../events/changes.ts';
import { groupService } from '../../groups/group-service.ts';
import { sessionCookie } from '../../sessions/session-cookie.ts';
import { userReadModel, type UserRow } from '../../users/user-read-model.ts';
import { userService } from '../../users/user-service.ts';
import type { LoginDeps } from '../login-deps.ts';
import { activeUser, claimValues, createOnFirstSignIn } from '../single-sign-on.ts';
import { certificateBody, loadSamlSettings, serviceProvider, type SamlSettings } from './saml-settings.ts';
import { noteWho } from '../../access-history/access-hook.ts';

// A response a minute early or late still counts (clocks differ); one older than this is refused.
const CLOCK_SKEW_MS = 60_000;
const REQUEST_SECONDS = 600;
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];

/** The login requests this installation sent, in Redis so any replica takes the answer to another's request. */
function requestCache(redis: Redis, namespace: string): CacheProvider {
  const key = (id: string) => `${namespace}:saml-request:${id}`;
  return {
    saveAsync: async (id, value) => {
      await redis.set(key(id), value, 'EX', REQUEST_SECONDS);
      return { createdAt: Date.now(), value };
    },
    getAsync: (id) => redis.get(key(id)),
    removeAsync: async (id) => (id !== null && (await redis.del(key(id))) > 0 ? id : null),
  };
}

function samlFor(settings: SamlSettings, baseUrl: string, cache: CacheProvider): SAML {
  if (!settings.enabled || !settings.signOnUrl || !settings.certificate || !settings.entityId) {
    throw new AuthenticationRequired('SAML sign-in is not set up on this installation.');
  }
  const sp = serviceProvider(baseUrl);
  return new SAML({
    issuer: sp.spEntityId,
    callbackUrl: sp.acsUrl,
    entryPoint: settings.signOnUrl,
    idpCert: certificateBody(settings.certificate),
    idpIssuer: settings.entityId,
    audience: sp.spEntityId,
    // The assertion itself must be signed by the provider's certificate; a signed envelope alone is not enough.
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    // Provider-started sign-ins carry no InResponseTo; an answer that names a request must name one of ours.
    validateInResponseTo: ValidateInResponseTo.ifPresent,
    requestIdExpirationPeriodMs: REQUEST_SECONDS * 1000,
    cacheProvider: cache,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    ...(settings.signOutUrl ? { logoutUrl: settings.signOutUrl } : {}),
  });
}

const emailOf = (profile: Profile) =>
  [...EMAIL_ATTRIBUTES.map((name) => profile[name]), profile.nameID].find(
    (value): value is string => typeof value === 'string' && value.includes('@'),
  );

/** The user an assertion names by e-mail; created when the settings allow it. */
async function userFor(change: Change, settings: SamlSettings, profile: Profile): Promise<UserRow> {
  const email = emailOf(profile);
  if (!email) throw new AuthenticationRequired('The identity provider sent no e-mail address for this user.');
  const existing = await userReadModel.findByEmail(change.tx, email);
  if (existing) return activeUser(existing);
  return createOnFirstSignIn(
    change,
    settings,
    email,
    typeof profile.displayName === 'string' ? profile.displayName : undefined,
  );
}

/** A refused sign-in is a page a person reads, with the way back; no session is made. */
const refusal = (reply: FastifyReply, message: string) => {
  noteWho(reply.request, { detail: message });
  return reply
    .code(401)
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in refused</title></head><body style="font-family: sans-serif; max-width: 40rem; margin: 4rem auto">` +
        `<h1>Sign-in with SAML was refused</h1><p>${escapeHtml(message)}</p><p><a href="/login">Back to sign-in</a></p></body></html>`,
    );
};

/** SAML 2.0 Web Browser SSO: started here (/auth/saml/login) or at the provider; assertions arrive at the callback. */
export function samlRoutes(app: HttpServer, deps: LoginDeps) {
  const { db, changes, redis, sessions, config, namespace } = deps;
  const cache = requestCache(redis, namespace);

  app.get(
    '/auth/saml/metadata',
    {
      schema: {
        summary: "This service provider's SAML metadata, for the identity provider",
        response: { 200: textAnswer('application/samlmetadata+xml', 'SAML 2.0 metadata') },
      },
    },
    async (_request, reply) => {
      const sp = serviceProvider(config.baseUrl);
      const saml = new SAML({
        issuer: sp.spEntityId,
        callbackUrl: sp.acsUrl,
        idpCert: 'unused',
        wantAssertionsSigned: true,
        identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      });
      return reply.type('application/samlmetadata+xml').send(saml.generateServiceProviderMetadata(null));
    },
  );

  app.get(
    '/auth/saml/login',
    {
      schema: {
        summary: 'Start signing in with SAML: redirects to the identity provider',
        response: { 302: Redirect },
      },
    },
    async (request, reply) => {
      const saml = samlFor(await loadSamlSettings(db), config.baseUrl, cache);
      return reply.redirect(await saml.getAuthorizeUrlAsync('', request.host, {}), 302);
    },
  );

  // The provider posts the response as a form; the form parser is this route's alone.
  app.register(async (scope) => {
    acceptFormBodies(scope);
    scope.post(
      '/auth/saml/callback',
      {
        schema: {
          summary: 'Where the identity provider posts its SAML response: starts the session',
          body: z.unknown(),
          response: { 302: Redirect },
        },
        config: { access: { method: 'saml', action: 'sign-in' } },
      },
      async (request: FastifyRequest, reply: FastifyReply) => {
        const form = (request.body ?? {}) as Record<string, unknown>;
        if (typeof form.SAMLResponse !== 'string' || form.SAMLResponse.length > 1_000_000)
          return refusal(reply, 'The identity provider sent no SAML response.');
        const settings = await loadSamlSettings(db);
        let profile: Profile;
        try {
          const saml = samlFor(settings, config.baseUrl, cache);
          const result = await saml.validatePostResponseAsync({
            SAMLResponse: form.SAMLResponse,
            ...(typeof form.RelayState === 'string' ? { RelayState: form.RelayState } : {}),
          });
          if (!result.profile) return refusal(reply, 'The identity provider signed the user out instead.');
          profile = result.profile;
          const email = profile.email ?? profile.nameID;
          if (typeof email === 'string') noteWho(request, { name: email });
        } catch (error) {
          return refusal(reply, `The identity provider's answer could not be accepted: ${(error as Error).message}`);
        }
        // From the configured provider: the library checks the signature against its certificate, not who signed as
        // whom. A response or assertion naming another Issuer is refused whatever signed it.
        const issuers = [
          ...`${profile.getSamlResponseXml?.() ?? ''}`.matchAll(/<(?:\w+:)?Issuer\b[^>]*>([^<]*)</g),
        ].map((match) => match[1]!.trim());
        if (
          profile.issuer !== settings.entityId ||
          issuers.length === 0 ||
          issuers.some((issuer) => issuer !== settings.entityId)
        ) {
          return refusal(
            reply,
            `The assertion was issued by ${profile.issuer || issuers[0] || 'no one named'}, not by the identity provider set up here (${settings.entityId}).`,
          );
        }
        // Meant for this service provider's consumer service: the library checks the audience, not the recipient.
        const acs = serviceProvider(config.baseUrl).acsUrl;
        const recipients = [
          ...(profile.getAssertionXml?.() ?? '').matchAll(
            /<(?:\w+:)?SubjectConfirmationData\b[^>]*\sRecipient="([^"]*)"/g,
          ),
        ].map((match) => match[1]);
        const destination = /^[^>]*<(?:\w+:)?Response\b[^>]*\sDestination="([^"]*)"/.exec(
          profile.getSamlResponseXml?.() ?? '',
        )?.[1];
        if (
          recipients.length === 0 ||
          recipients.some((recipient) => recipient !== acs) ||
          (destination !== undefined && destination !== acs)
        ) {
          return refusal(
            reply,
            `The assertion is addressed to another service provider (${recipients[0] ?? destination ?? 'no recipient'}), not to ${acs}.`,
          );
        }
        // Each assertion signs one person in once: the same one posted again (stolen from a browser) is refused.
        const assertionId = /<(?:\w+:)?Assertion\b[^>]*\sID="([^"]+)"/.exec(profile.getAssertionXml?.() ?? '')?.[1];
        if (!assertionId) return refusal(reply, 'The assertion has no ID.');
        if ((await redis.set(`${namespace}:saml-assertion:${assertionId}`, '1', 'EX', 24 * 3600, 'NX')) !== 'OK') {
          return refusal(reply, 'This assertion was already used to sign in; sign in again.');
        }
        let userId: number;
        try {
          userId = await changes.run({ system: SYSTEM_ACTOR }, async (change) => {
            const user = await userFor(change, settings, profile);
            if (settings.enableGroupSyncing && settings.groupJsonPath)
              await groupService.syncFromClaims(change, user.id, claimValues(profile, settings.groupJsonPath), 'saml');
            return user.id;
          });
        } catch (error) {
          if (error instanceof AuthenticationRequired || error instanceof NoAccessError)
            return refusal(
              reply,
              error instanceof NoAccessError
                ? 'There is no account for this user here, and this installation creates none for this address.'
                : error.message,
            );
          throw error;
        }
        noteWho(request, { userId });
        await userService.recordLogin(db, userId);
        const session = await sessions.create(userId, 'saml');
        return reply
          .header('set-cookie', sessionCookie(request, config.baseUrl, session, sessions.ttlSeconds))
          .redirect('/', 302);
      },
    );
  });
}
