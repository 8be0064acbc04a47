import { describe, expect, it } from 'vitest';
import { readIdpMetadata } from './idp-metadata.ts';

const METADATA = `<?xml version="1.0"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example/saml">
<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
<md:KeyDescriptor use="encryption"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>ENCRYPTION</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>MIIC
SIGNING</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
<md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example/slo"/>
<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://idp.example/sso/post"/>
<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example/sso"/>
</md:IDPSSODescriptor></md:EntityDescriptor>`;

describe("an identity provider's metadata", () => {
  it('gives its entity id, redirect sign-on and sign-out addresses and signing certificate', () => {
    expect(readIdpMetadata(METADATA)).toEqual({
      entityId: 'https://idp.example/saml',
      signOnUrl: 'https://idp.example/sso',
      signOutUrl: 'https://idp.example/slo',
      certificate: 'MIICSIGNING',
    });
    expect(readIdpMetadata('<nothing/>')).toEqual({});
  });
});
