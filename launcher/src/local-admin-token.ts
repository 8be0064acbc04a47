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
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}
