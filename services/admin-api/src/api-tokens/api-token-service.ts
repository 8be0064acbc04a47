import { SYSTEM_ACTOR, type ApiToken, type CreateApiToken } from '@bunting/contracts';
import { NotFoundError, ValidationError, type Logger, type Queryable } from '@bunting/platform';
import type { Change, Changes } from '../events/changes.ts';
import { projectReadModel } from '../projects/project-read-model.ts';
import { apiTokenStore, type ApiTokenRow } from './api-token-store.ts';
import { hashSecret, newTokenSecret, parseTokenSecret } from './token-secret.ts';
import { accessHistoryReadModel } from '../access-history/access-history-read-model.ts';

type TokenType = 'admin' | 'client' | 'frontend';

/**
 * A token named in a path: by its secret (as Unleash's routes take it) or, for a token whose secret is no longer
 * shown, as `id:<id>` (its id is in every answer; a secret always has a "." and so never reads as one).
 */
function findToken(db: Queryable, reference: string) {
  const byId = /^id:(\d{1,10})$/.exec(reference);
  return byId ? apiTokenStore.findById(db, Number(byId[1])) : apiTokenStore.findByHash(db, hashSecret(reference));
}

export function tokenView(row: ApiTokenRow, secret: string | null = null): ApiToken {
  return {
    id: row.id,
    secret,
    tokenName: row.tokenName,
    type: row.namedBackend ? 'backend' : row.type,
    environment: row.environment,
    project: row.projects.length === 1 ? row.projects[0]! : '[]',
    projects: row.projects,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    seenAt: row.seenAt,
    alias: row.alias,
    // Unleash 8 marks tokens whose secret is kept only as a hash, shown once and never again: every Bunting token.
    secure: true,
  };
}

function eventState(row: ApiTokenRow) {
  const { secret: _secret, ...state } = tokenView(row);
  return state;
}

async function checkScope(db: Queryable, type: TokenType, environment: string, projects: string[]) {
  if (type === 'admin') return;
  const environmentExists = await apiTokenStore.environmentExists(db, environment);
  if (!environmentExists) throw ValidationError.field('environment', `environment ${environment} does not exist`);
  if (projects.includes('*')) return;
  const found = await apiTokenStore.existingProjects(db, projects);
  const missing = projects.filter((project) => !found.includes(project));
  if (missing.length > 0) throw ValidationError.field('projects', `project ${missing.join(', ')} does not exist`);
}

export const apiTokenService = {
  async list(db: Queryable) {
    return { tokens: (await apiTokenStore.list(db)).map((row) => tokenView(row)) };
  },

  async listByName(db: Queryable, name: string) {
    return { tokens: (await apiTokenStore.listByName(db, name)).map((row) => tokenView(row)) };
  },

  /** Project token routes name a project that must exist (Unleash: 404). */
  async requireProject(db: Queryable, project: string) {
    if (!(await projectReadModel.exists(db, project))) throw new NotFoundError(`Could not find project ${project}`);
  },

  async listForProject(db: Queryable, project: string) {
    await apiTokenService.requireProject(db, project);
    return { tokens: (await apiTokenStore.listForProject(db, project)).map((row) => tokenView(row)) };
  },

  /** Creates a token; its secret is in this answer only, the database keeps a hash. */
  async create({ tx, emit }: Change, input: CreateApiToken): Promise<ApiToken> {
    // Admin access is for personal access tokens and service accounts, as in Unleash 8.
    if (input.type === 'admin')
      throw ValidationError.field(
        'type',
        'admin API tokens cannot be created: use a service account or a personal access token',
      );
    const type = input.type === 'backend' ? 'client' : input.type;
    const environment = input.environment ?? 'development';
    const projects = input.projects ?? (input.project ? [input.project] : ['*']);
    await checkScope(tx, type, environment, projects);
    if (input.expiresAt && Date.parse(input.expiresAt) <= Date.now())
      throw ValidationError.field('expiresAt', 'must be in the future');
    const secret = newTokenSecret(projects, environment);
    const row = await apiTokenStore.insert(tx, {
      secretHash: hashSecret(secret),
      tokenName: input.tokenName ?? input.username!,
      type,
      environment,
      projects,
      expiresAt: input.expiresAt ? new Date(input.expiresAt).toISOString() : null,
      namedBackend: input.type === 'backend',
    });
    emit({
      type: 'api-token-created',
      project: projects.length === 1 && projects[0] !== '*' ? projects[0] : null,
      environment: environment === '*' ? null : environment,
      data: eventState(row),
    });
    return tokenView(row, secret);
  },

  async updateExpiry({ tx, emit }: Change, secret: string, expiresAt: string) {
    const before = await findToken(tx, secret);
    // Unleash 8.2 answers 200 for a token it does not have, and changes and logs nothing (its Terraform provider
    // relies on it); DELETE does the same.
    if (!before) return undefined;
    const after = await apiTokenStore.updateExpiry(tx, before.id, new Date(expiresAt).toISOString());
    emit({
      type: 'api-token-updated',
      environment: after.environment === '*' ? null : after.environment,
      data: eventState(after),
      preData: eventState(before),
    });
    return tokenView(after);
  },

  /** Deleting an unknown token is a no-op that answers 200, as in Unleash; through a project it is 404, as there. */
  async delete({ tx, emit }: Change, secret: string, project?: string) {
    const before = await findToken(tx, secret);
    if (!before && project !== undefined) throw new NotFoundError('Could not find that API token in this project');
    if (!before) return;
    if (project !== undefined && !before.projects.includes(project))
      throw new NotFoundError('Could not find that API token in this project');
    const hash = await apiTokenStore.delete(tx, before.id);
    // Only the hash is kept: a use of this secret later is recorded as the use of a revoked token.
    if (hash)
      await accessHistoryReadModel.revoke(tx, { hash, kind: 'api-token', name: before.tokenName, userId: null });
    emit({
      type: 'api-token-deleted',
      environment: before.environment === '*' ? null : before.environment,
      preData: eventState(before),
    });
  },

  /** INIT_*_API_TOKENS: tokens given at start-up exist afterwards, with exactly those secrets. */
  async ensureInitTokens(
    changes: Changes,
    log: Logger,
    tokens: { admin: string[]; client: string[]; frontend: string[] },
  ) {
    const entries: [TokenType, string][] = [
      ...tokens.admin.map((secret) => ['admin', secret] as [TokenType, string]),
      ...tokens.client.map((secret) => ['client', secret] as [TokenType, string]),
      ...tokens.frontend.map((secret) => ['frontend', secret] as [TokenType, string]),
    ];
    for (const [type, secret] of entries) {
      const scope = parseTokenSecret(secret);
      if (!scope) {
        log.warn({ type }, 'ignoring an init token that is not of the form <project>:<environment>.<secret>');
        continue;
      }
      await changes.run({ system: SYSTEM_ACTOR }, async ({ tx, emit }) => {
        if (await apiTokenStore.findByHash(tx, hashSecret(secret))) return;
        const projects = type === 'admin' || scope.project === '*' || scope.project === '[]' ? ['*'] : [scope.project];
        const row = await apiTokenStore.insert(tx, {
          secretHash: hashSecret(secret),
          tokenName: type === 'admin' ? 'admin' : `init-${type}`,
          type,
          environment: type === 'admin' ? '*' : scope.environment,
          projects,
          expiresAt: null,
        });
        emit({ type: 'api-token-created', data: eventState(row) });
      });
    }
  },
};
