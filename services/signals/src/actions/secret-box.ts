import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** AES-256-GCM for credentials the service must keep (never return): "v1.<iv>.<tag>.<ciphertext>". */
export function createSecretBox(key: string) {
  const material = createHash('sha256').update(key).digest();
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', material, iv);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [
        'v1',
        iv.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
        sealed.toString('base64url'),
      ].join('.');
    },
    open(boxed: string): string {
      const [version, iv, tag, sealed] = boxed.split('.');
      if (version !== 'v1' || !iv || !tag || !sealed) throw new Error('unknown secret format');
      const decipher = createDecipheriv('aes-256-gcm', material, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
export type SecretBox = ReturnType<typeof createSecretBox>;
