import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * For `npm start` on a developer machine: without INIT_ADMIN_API_TOKENS, keep one admin token in a local
 * file (ignored by git) so every start can print a token that works.
 */
export function localAdminToken(file: string): string {
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing) return existing;
  } catch {
    // first start
  }
  const token = `*:*.${randomBytes(28).toString('hex')}`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
  } catch (error) {
    // A read-only or foreign-owned directory (a container running as another user): the token still works, it is
    // kept in the database like every init token, but the next start makes another. Say so rather than crash.
    console.warn(
      `could not keep the admin token in ${file} (${(error as Error).message}); set INIT_ADMIN_API_TOKENS to choose one`,
    );
  }
  return token;
}
