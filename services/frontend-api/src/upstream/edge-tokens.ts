import { z } from 'zod';
import { EdgeTokenValidation, type SdkToken } from '@bunting/contracts';
import type { Logger } from '@bunting/platform';
import { hashSecret, type SdkTokens } from '../tokens/sdk-tokens.ts';
import type { EdgeConfig } from './edge-config.ts';
import { unknownTokenPolicy } from './unknown-tokens.ts';
import type { Upstream } from './upstream-http.ts';

/** A token as the edge keeps it: the secret (client ones follow the upstream with it) and its scope. */
export type KnownToken = { secret: string; type: 'client' | 'frontend'; environment: string; projects: string[] };

/** /edge/validate's answer as any upstream gives it: Unleash 7+ may call client tokens "backend"; others are skipped. */
const UpstreamValidation = z.object({
  tokens: z.array(EdgeTokenValidation.shape.tokens.element.extend({ type: z.string() })),
});

/** Most secrets in one /edge/validate request upstream (the contract's bound). */
const SECRETS_PER_REQUEST = 1000;

export type EdgeTokens = SdkTokens & {
  known: () => KnownToken[];
  /** A token the upstream refused while following with it: refused here from now on. */
  forget: (secret: string) => void;
  /** Validates the tokens configured and those persisted; the client ones are followed through `onClient`. */
  begin: (configured: readonly string[], persisted: readonly KnownToken[]) => Promise<void>;
  /** Answers /edge/validate for an edge chained behind this one: the given secrets this edge accepts. */
  validate: (secrets: readonly string[]) => Promise<KnownToken[]>;
};

type Deps = {
  upstream: Upstream;
  log: Logger;
  config: Pick<EdgeConfig, 'tokenRevalidateMs' | 'unknownTokensPerSecond'>;
  onClient: (token: KnownToken) => void;
  onForgotten: (token: KnownToken) => void;
  onChange: (tokens: KnownToken[]) => void;
};

/**
 * Unleash's token format, `project:environment.secret` (`*` for all projects, `[]` for several): the scope a
 * configured token is followed with while the upstream cannot be asked. The upstream's answer replaces it.
 */
export function scopeFromSecret(secret: string): Omit<KnownToken, 'secret' | 'type'> | undefined {
  const match = /^([^:]+):([^.]+)\.\S+$/.exec(secret);
  if (!match) return undefined;
  return { environment: match[2]!, projects: match[1] === '[]' ? [] : [match[1]!] };
}

/**
 * The tokens a standalone edge serves: those configured (EDGE_TOKENS) and those learned on first use, each validated
 * against the upstream's POST /edge/validate, as Unleash Edge's dynamic mode does, and validated again every
 * EDGE_TOKEN_REVALIDATE_MS: a token the upstream no longer knows stops working then. While the upstream cannot be
 * asked the tokens known are kept.
 */
export function createEdgeTokens(deps: Deps): EdgeTokens {
  const { upstream, log } = deps;
  const bySecret = new Map<string, KnownToken>();
  const unknown = unknownTokenPolicy({
    intervalMs: deps.config.tokenRevalidateMs,
    perSecond: deps.config.unknownTokensPerSecond,
  });
  const lookups = new Map<string, Promise<SdkToken | null>>();
  // Secrets met in one turn of the event loop, asked about upstream together.
  let batch: Map<string, (answer: KnownToken | null | undefined) => void> | null = null;
  const probeEtags = new Map<string, string>();
  let timer: NodeJS.Timeout | undefined;

  const asSdkToken = (token: KnownToken): SdkToken => ({
    hash: hashSecret(token.secret),
    // Only for the metrics' token name: the part before the secret, which Unleash's token names follow.
    name: token.secret.split('.')[0] ?? 'edge',
    type: token.type,
    environment: token.environment,
    projects: token.projects,
    expiresAt: null,
    createdAt: new Date(0).toISOString(),
  });

  /** The upstream's view of these secrets; undefined when it cannot be asked. */
  async function ask(secrets: readonly string[]): Promise<KnownToken[] | undefined> {
    if (secrets.length === 0) return [];
    try {
      const answer = await upstream.request('POST', 'edge/validate', { body: { tokens: secrets } });
      if (answer.status !== 200) {
        log.warn({ status: answer.status }, 'the upstream did not validate tokens');
        return undefined;
      }
      const parsed = UpstreamValidation.safeParse(JSON.parse(answer.text));
      if (!parsed.success) {
        log.warn('the upstream answered /edge/validate with something else than its shape');
        return undefined;
      }
      return parsed.data.tokens.flatMap(({ token, type, environment, projects }): KnownToken[] => {
        const kind = type === 'backend' ? 'client' : type;
        return kind === 'client' || kind === 'frontend' ? [{ secret: token, type: kind, environment, projects }] : [];
      });
    } catch (error) {
      log.warn(
        { reason: (error as Error).message },
        'cannot validate tokens with the upstream now; keeping those known',
      );
      return undefined;
    }
  }

  function remember(token: KnownToken) {
    const before = bySecret.get(token.secret);
    const changed =
      !before ||
      before.type !== token.type ||
      before.environment !== token.environment ||
      before.projects.join() !== token.projects.join();
    // A scope guessed from the token's text (upstream away at start) that the upstream answers otherwise: the old
    // scope's feed stops and the right one starts.
    if (before && changed) deps.onForgotten(before);
    bySecret.set(token.secret, token);
    if (token.type === 'client' && changed) deps.onClient(token);
  }

  function forget(secret: string) {
    const token = bySecret.get(secret);
    if (!token) return;
    bySecret.delete(secret);
    probeEtags.delete(secret);
    deps.onForgotten(token);
  }

  async function revalidate() {
    const secrets = [...bySecret.keys()];
    const valid = await ask(secrets);
    if (!valid) return;
    const answered = new Map(valid.map((token) => [token.secret, token]));
    for (const secret of secrets) {
      const token = answered.get(secret);
      if (token && !(await refusedByItsApi(token))) remember(token);
      else {
        log.info('a token the edge served is no longer valid upstream; it is refused from now on');
        forget(secret);
      }
    }
    deps.onChange([...bySecret.values()]);
  }

  /**
   * Whether the upstream's own API refuses the token: Unleash 8.2 answers /edge/validate from a cache that a
   * revocation does not reach, while its SDK APIs refuse a revoked token within about a minute. One cheap request
   * per token and revalidation (a client token's features answer 304 to the ETag it was last sent).
   */
  async function refusedByItsApi(token: KnownToken): Promise<boolean> {
    try {
      const path = token.type === 'client' ? 'api/client/features' : 'api/frontend';
      const etag = probeEtags.get(token.secret);
      const answer = await upstream.request('GET', path, {
        token: token.secret,
        headers: etag ? { 'if-none-match': etag } : {},
      });
      const sent = answer.headers.get('etag');
      if (sent) probeEtags.set(token.secret, sent);
      return answer.status === 401 || answer.status === 403;
    } catch {
      return false;
    }
  }

  /** The upstream's word on one secret, asked in one request with the others met in the same turn. */
  function askTogether(secret: string): Promise<KnownToken | null | undefined> {
    if (!batch) {
      const waiting = (batch = new Map());
      setImmediate(() => {
        batch = null;
        void askBatch(waiting);
      });
    }
    return new Promise((resolve) => batch!.set(secret, resolve));
  }

  async function askBatch(waiting: Map<string, (answer: KnownToken | null | undefined) => void>) {
    const secrets = [...waiting.keys()];
    for (let start = 0; start < secrets.length; start += SECRETS_PER_REQUEST) {
      const chunk = secrets.slice(start, start + SECRETS_PER_REQUEST);
      const valid = await ask(chunk);
      const answered = new Map((valid ?? []).map((token) => [token.secret, token]));
      for (const secret of chunk)
        waiting.get(secret)!(valid === undefined ? undefined : (answered.get(secret) ?? null));
    }
  }

  // Each token's SdkToken made once (its hash is a SHA-256), not on every request.
  const asSdk = new WeakMap<KnownToken, SdkToken>();
  return {
    find(secret) {
      const token = bySecret.get(secret);
      if (!token) return null;
      let sdk = asSdk.get(token);
      if (!sdk) asSdk.set(token, (sdk = asSdkToken(token)));
      return sdk;
    },
    lookup(secret) {
      let pending = lookups.get(secret);
      if (pending) return pending;
      if (unknown.mayAsk(secret, Date.now()) !== 'ask') return Promise.resolve(null);
      pending = askTogether(secret)
        .then(async (found) => {
          // Checked with its own API too, as at revalidation: else a revoked token Unleash still validates comes back.
          const token = found && !(await refusedByItsApi(found)) ? found : undefined;
          if (!token) {
            // An upstream that could not be asked (undefined) says nothing about the secret: it may be asked again.
            if (found !== undefined) unknown.unknown(secret, Date.now());
            return null;
          }
          remember(token);
          deps.onChange([...bySecret.values()]);
          return asSdkToken(token);
        })
        .finally(() => lookups.delete(secret));
      lookups.set(secret, pending);
      return pending;
    },
    async validate(secrets) {
      const unknown = secrets.filter((secret) => !bySecret.has(secret));
      await Promise.all(unknown.map((secret) => this.lookup(secret)));
      return secrets.flatMap((secret) => bySecret.get(secret) ?? []);
    },
    loaded: () => true,
    known: () => [...bySecret.values()],
    forget(secret) {
      forget(secret);
      deps.onChange([...bySecret.values()]);
    },
    async begin(configured, persisted) {
      for (const token of persisted) remember(token);
      const valid = await ask(configured);
      if (valid) {
        const answered = new Set(valid.map((token) => token.secret));
        for (const token of valid) remember(token);
        for (const secret of configured) {
          if (!answered.has(secret)) log.error('a token in EDGE_TOKENS is not valid upstream; it is not served');
        }
      } else {
        // The upstream is away: configured tokens are followed as their text says, until it answers.
        for (const secret of configured) {
          const scope = scopeFromSecret(secret);
          if (!bySecret.has(secret) && scope) remember({ secret, type: 'client', ...scope });
        }
      }
      deps.onChange([...bySecret.values()]);
      const schedule = () => {
        timer = setTimeout(() => void revalidate().finally(schedule), deps.config.tokenRevalidateMs);
        timer.unref();
      };
      schedule();
    },
    stop() {
      if (timer) clearTimeout(timer);
    },
  };
}
