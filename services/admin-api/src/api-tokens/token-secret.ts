import { createHash, randomBytes } from 'node:crypto';

/** Unleash's token form: `<project>:<environment>.<random>`, with `*` for all and `[]` for several projects. */
export function newTokenSecret(projects: string[], environment: string): string {
  const projectPart = projects.includes('*') ? '*' : projects.length === 1 ? projects[0] : '[]';
  return `${projectPart}:${environment}.${randomBytes(28).toString('hex')}`;
}

/** Secrets are random and long, so a fast hash is enough to store them without keeping them. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Reads the project and environment an init token's secret declares. */
export function parseTokenSecret(secret: string): { project: string; environment: string } | null {
  const match = /^([^:]+):([^.]+)\.(.+)$/.exec(secret);
  if (!match) return null;
  return { project: match[1]!, environment: match[2]! };
}
