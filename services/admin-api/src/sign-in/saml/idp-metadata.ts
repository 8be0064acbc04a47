/** What an identity provider's SAML metadata says of it: the settings an admin would otherwise copy by hand. */
export type IdpMetadata = { entityId?: string; signOnUrl?: string; signOutUrl?: string; certificate?: string };

const attribute = (tag: string, name: string) => new RegExp(`<(?:\\w+:)?${tag}\\b[^>]*\\s${name}="([^"]+)"`);

/** The provider's entity id (its Issuer), sign-on and sign-out addresses (redirect binding) and signing certificate. */
export function readIdpMetadata(xml: string): IdpMetadata {
  const redirect = (tag: string) =>
    [...xml.matchAll(new RegExp(`<(?:\\w+:)?${tag}\\b[^>]*>`, 'g'))]
      .map((match) => match[0])
      .find((element) => element.includes('HTTP-Redirect'));
  const location = (element: string | undefined) => (element ? /\sLocation="([^"]+)"/.exec(element)?.[1] : undefined);
  const signing =
    /<(?:\w+:)?KeyDescriptor\b(?![^>]*use="encryption")[^>]*>[\s\S]*?<(?:\w+:)?X509Certificate>([^<]+)</.exec(xml)?.[1];
  const found: IdpMetadata = {
    entityId: attribute('EntityDescriptor', 'entityID').exec(xml)?.[1],
    signOnUrl: location(redirect('SingleSignOnService')),
    signOutUrl: location(redirect('SingleLogoutService')),
    certificate: signing?.replace(/\s+/g, ''),
  };
  return Object.fromEntries(Object.entries(found).filter(([, value]) => value !== undefined)) as IdpMetadata;
}
