import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as samlify from 'samlify';

// The peer checks the requests Bunting sends only for what it uses of them (their ID); samlify asks for a validator.
samlify.setSchemaValidator({ validate: async () => 'accepted' });

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

export type SamlUser = { email: string; name?: string; groups?: string[] };
/** What a test changes of an otherwise good response. */
export type SamlTamper = {
  /** Sign only the response envelope, not the assertion. */
  unsignedAssertion?: boolean;
  audience?: string;
  /** Where the assertion says it is to be delivered (default: the service provider's consumer service). */
  recipient?: string;
  /** When the assertion stops being valid (default: five minutes from now). */
  notOnOrAfter?: Date;
  /** Replace text in the signed XML (the signature then no longer fits). */
  alter?: [string, string];
  /** Who the response and assertion say issued them (default: this provider), signed as usual. */
  issuer?: string;
};

export type SamlPeer = {
  entityId: string;
  ssoUrl: string;
  /** The signing certificate, PEM. */
  certificate: string;
  /** The provider's SAML metadata (XML): its entity id, sign-on address and certificate. */
  metadata: string;
  /** A SAMLResponse (base64) for the user: to the request named by `requestUrl` (the redirect Bunting sent), or unasked. */
  respond: (
    spMetadata: string,
    user: SamlUser,
    options?: { requestUrl?: string; tamper?: SamlTamper },
  ) => Promise<string>;
  /** Who the peer's web sign-on page signs in (the browser tests go through it). */
  signInAs: (user: SamlUser, spMetadata: string, acsUrl: string) => void;
  close: () => Promise<void>;
};

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function attributes(user: SamlUser): string {
  const attribute = (name: string, values: string[]) =>
    `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${values.map((value) => `<saml:AttributeValue xsi:type="xs:string">${escape(value)}</saml:AttributeValue>`).join('')}</saml:Attribute>`;
  return `<saml:AttributeStatement>${attribute('email', [user.email])}${user.name ? attribute('displayName', [user.name]) : ''}${user.groups ? attribute('groups', user.groups) : ''}</saml:AttributeStatement>`;
}

/**
 * A SAML 2.0 identity provider for tests, built on samlify: it signs with a key and certificate made by openssl, answers
 * the requests Bunting redirects to it, starts sign-ins itself, and serves a sign-on page that posts to Bunting's ACS.
 */
export async function startSamlPeer(): Promise<SamlPeer> {
  const dir = mkdtempSync(join(tmpdir(), 'saml-peer-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-subj',
      '/CN=bunting-test-idp',
      '-days',
      '2',
    ],
    { stdio: 'ignore' },
  );
  const privateKey = readFileSync(join(dir, 'key.pem'), 'utf8');
  const certificate = readFileSync(join(dir, 'cert.pem'), 'utf8');
  rmSync(dir, { recursive: true, force: true });

  let browserUser: { user: SamlUser; spMetadata: string; acsUrl: string } | undefined;
  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://idp');
      if (url.pathname !== '/sso' || !browserUser) return response.writeHead(404).end();
      const saml = await peer.respond(browserUser.spMetadata, browserUser.user, { requestUrl: url.toString() });
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><html lang="en"><head><title>Test identity provider</title></head>` +
            `<body onload="document.forms[0].submit()"><form method="post" action="${escape(browserUser.acsUrl)}"><input type="hidden" name="SAMLResponse" value="${saml}"><noscript><button>Continue</button></noscript></form></body></html>`,
        );
    })().catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = `${base}/metadata`;
  const ssoUrl = `${base}/sso`;
  const idp = samlify.IdentityProvider({
    entityID: entityId,
    signingCert: certificate,
    privateKey,
    nameIDFormat: [EMAIL_FORMAT],
    singleSignOnService: [{ Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: ssoUrl }],
  });

  const peer: SamlPeer = {
    entityId,
    ssoUrl,
    certificate,
    metadata: idp.getMetadata(),
    async respond(spMetadata, user, options = {}) {
      const tamper = options.tamper ?? {};
      const sp = samlify.ServiceProvider({
        metadata: tamper.unsignedAssertion
          ? spMetadata.replace('WantAssertionsSigned="true"', 'WantAssertionsSigned="false"')
          : spMetadata,
      });
      let inResponseTo = '';
      if (options.requestUrl) {
        const query = Object.fromEntries(new URL(options.requestUrl).searchParams);
        const { extract } = await idp.parseLoginRequest(sp, 'redirect', { query });
        inResponseTo = String(extract.request?.id ?? '');
      }
      const now = new Date();
      const until = (tamper.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000)).toISOString();
      const acs = /<(?:\w+:)?AssertionConsumerService\b[^>]*\sLocation="([^"]+)"/.exec(spMetadata)?.[1];
      if (!acs) throw new Error("the service provider's metadata names no assertion consumer service");
      const { context } = await idp.createLoginResponse(
        sp,
        { extract: {} },
        'post',
        { email: user.email },
        (template: string) => {
          const id = `_${crypto.randomUUID()}`;
          // The statements are XML, which replaceTagsByValue would escape: they go in first, as they are.
          const withStatements = template
            .replace(
              '{AuthnStatement}',
              `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${id}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
            )
            .replace('{AttributeStatement}', attributes(user));
          let xml = samlify.SamlLib.replaceTagsByValue(withStatements, {
            ID: id,
            AssertionID: `_${crypto.randomUUID()}`,
            Destination: acs,
            Audience: tamper.audience ?? sp.entityMeta.getEntityID(),
            SubjectRecipient: tamper.recipient ?? acs,
            Issuer: tamper.issuer ?? entityId,
            IssueInstant: now.toISOString(),
            StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
            ConditionsNotBefore: now.toISOString(),
            ConditionsNotOnOrAfter: until,
            SubjectConfirmationDataNotOnOrAfter: until,
            NameIDFormat: EMAIL_FORMAT,
            NameID: user.email,
            InResponseTo: inResponseTo,
          });
          // A sign-in the provider started answers no request: no InResponseTo at all.
          if (!inResponseTo) xml = xml.replaceAll(' InResponseTo=""', '');
          return { id, context: xml };
        },
      );
      if (!tamper.alter) return context;
      return Buffer.from(
        Buffer.from(context, 'base64').toString('utf8').replace(tamper.alter[0], tamper.alter[1]),
      ).toString('base64');
    },
    signInAs(user, spMetadata, acsUrl) {
      browserUser = { user, spMetadata, acsUrl };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return peer;
}
