import { gunzipSync, gzipSync } from 'node:zlib';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, registerExamples } from '@bunting/contracts';
import type { HttpServer } from './http-server.ts';
import type { Messaging } from './messaging.ts';
import { openApi30 } from './openapi-30.ts';

/**
 * Unleash's tags for its operations, by where they live: the first rule that matches names the group. Every name is
 * one of Unleash's approved tags (its document check refuses others), and an operation Unleash has carries Unleash's
 * tag (tests/e2e/src/openapi-unleash.test.ts compares with a running Unleash); Bunting's own operations go to the
 * closest: OFREP to the frontend API, signals and actions to addons (outside systems wired to flags), impact metrics
 * to metrics, release plans to release templates, SCIM to users, the MCP server and its OAuth to auth, the
 * OpenFeature manifest to features.
 */
const TAGS: readonly [RegExp, string][] = [
  [/^\/api\/frontend|^\/ofrep\//, 'Frontend API'],
  [/^\/api\/client\/metrics\/bulk$|^\/edge\/|^\/api\/admin\/edge/, 'Unleash Edge'],
  [/^\/api\/client/, 'Client'],
  [
    /^\/api\/signal-endpoint\/|^\/api\/admin\/(signal-endpoints|signals)|^\/api\/admin\/projects\/[^/]+\/actions/,
    'Addons',
  ],
  [/change-requests/, 'Change Requests'],
  [/impact-metrics|^\/internal-backstage\/impact/, 'Metrics'],
  [
    /release-plan-templates|release-templates|release[-_]plans|\/progressions(\/|$)|\/safeguards(\/|$)/,
    'Release Templates',
  ],
  [/^\/api\/admin\/banners/, 'Banners'],
  [/^\/api\/admin\/(events|search\/events|event-creators)/, 'Events'],
  [/^\/api\/admin\/search\/features/, 'Search'],
  [/^\/api\/admin\/metrics\/unknown-flags/, 'Unknown Flags'],
  [/^\/api\/admin\/(insights|dashboard|instance-admin)/, 'Instance Admin'],
  [
    /^\/api\/admin\/projects\/[^/]+\/(health-report|insights|status|dora|sdks\/outdated|applications|flag-creators)$|^\/api\/admin\/personal-dashboard/,
    'Projects',
  ],
  [/^\/api\/admin\/(metrics|client-metrics)|\/applications$|sdks\/outdated/, 'Metrics'],
  [/^\/api\/admin\/features-batch/, 'Import/Export'],
  [/\/dependencies|\/parents|\/parent-variants/, 'Dependencies'],
  [
    /^\/api\/admin\/segments\/strategies$|^\/api\/admin\/strategies|^\/api\/admin\/(projects\/[^/]+\/)?context\/[^/]+\/strategies/,
    'Strategies',
  ],
  [/^\/api\/admin\/segments/, 'Segments'],
  [/^\/api\/admin\/(projects\/[^/]+\/)?context/, 'Context'],
  [/^\/api\/admin\/archive|^\/api\/admin\/projects\/[^/]+\/(revive|delete)$/, 'Archive'],
  [/^\/api\/admin\/feature-types/, 'Feature Types'],
  [/^\/api\/admin\/projects\/[^/]+\/tags/, 'Tags'],
  [
    /^\/api\/admin\/projects\/[^/]+\/(favorites|stale|bulk_features|archive)|^\/api\/admin\/constraints|\/strategies|\/variants/,
    'Features',
  ],
  [
    /^\/api\/admin\/projects\/[^/]+\/features|^\/api\/admin\/features|lifecycle|\/link|flag-creators|^\/openfeature\/|code-references|cleanup-candidates|managed-as-code/,
    'Features',
  ],
  [/^\/api\/admin\/projects/, 'Projects'],
  [/^\/api\/admin\/environments/, 'Environments'],
  [/^\/api\/admin\/(tags|tag-types)/, 'Tags'],
  [/^\/api\/admin\/addons/, 'Addons'],
  [/^\/api\/admin\/api-tokens/, 'API tokens'],
  [/^\/api\/admin\/service-account/, 'Service Accounts'],
  [/^\/api\/admin\/user\/tokens/, 'Personal access tokens'],
  [/^\/api\/admin\/(mcp|remote-mcp|agents|user\/agents)|^\/oauth\/|^\/\.well-known\/oauth/, 'Auth'],
  [/^\/api\/admin\/scim-settings|^\/scim\/|^\/api\/admin\/(user-admin|user|roles|groups|permissions)/, 'Users'],
  [/^\/api\/admin\/invite-link|^\/invite\//, 'Public signup tokens'],
  [/^\/api\/admin\/auth|^\/auth\/|^\/logout|^\/api\/admin\/access-history/, 'Auth'],
  [/^\/api\/admin\/playground/, 'Playground'],
  [/^\/api\/admin\/maintenance/, 'Maintenance'],
  [/^\/api\/admin\/(ui-config|splash|feedback)/, 'Admin UI'],
  [/^\/(health|ready|internal-backstage)/, 'Operational'],
];

/** What each group holds, as the interactive page shows it above the group's operations (Bunting's own words). */
const TAG_DESCRIPTIONS: Record<string, string> = {
  'Frontend API':
    'Flags evaluated for one user, for browser and mobile SDKs (frontend tokens), and the OpenFeature Remote Evaluation Protocol (OFREP) over the same tokens.',
  'Unleash Edge': 'What Unleash Edge (or a Bunting edge) asks of its upstream: token checks and bulk metrics.',
  Client:
    'Flag configuration for server SDKs to evaluate themselves: polling, delta and streaming; metrics and registration.',
  Addons:
    'Outside systems wired to flags: integrations that send events elsewhere (webhooks, Slack, Microsoft Teams, Datadog, New Relic), signal endpoints that receive, and action sets that act on what they receive.',
  'Change Requests': 'Change control per project environment: drafts, review, approval, scheduling and application.',
  Metrics:
    "Applications and flag usage reported by SDKs, and the applications' own impact metrics: queries, the catalogue, charts per flag and an external Prometheus source.",
  'Release Templates':
    'Release templates of ordered milestones, plans applied to flag environments, progressions that start the next milestone on their own, and safeguards that stop them.',
  Banners: 'Messages shown to everyone using the console.',
  Events: 'The event log: every change, who made it and when.',
  Search: 'Searching flags across projects, with filters, sorting and paging.',
  'Unknown Flags': 'Flags SDKs asked for that do not exist.',
  'Instance Admin': 'The installation as a whole: statistics, the insights dashboard.',
  Projects: 'Projects, their environments, members and roles, health, status and applications.',
  'Import/Export': 'Moving flags between installations or environments.',
  Dependencies: 'Flags that depend on other flags.',
  Strategies: 'Strategy definitions, and where strategies use segments and context fields.',
  Segments: 'Reusable sets of constraints.',
  Context: 'Context fields, of the installation or of a project.',
  Archive: 'Archived flags: reviving them or deleting them for good.',
  'Feature Types': 'The kinds of flag and how long each is expected to live.',
  Tags: 'Tag types and tags on flags and projects.',
  Features: 'Flags, their strategies, variants, links and lifecycle.',
  Environments: "The installation's environments.",
  'API tokens': 'Tokens for SDKs and scripts.',
  'Service Accounts': 'Accounts for scripts and integrations, and their tokens.',
  'Personal access tokens': "A user's own tokens.",
  Users:
    'Users, groups, roles and permissions, and SCIM 2.0 provisioning (RFC 7644) for identity providers with the token made in its settings.',
  'Public signup tokens': 'Invite links and signing up through them.',
  Auth: 'Signing in and out (password, OpenID Connect, SAML, password resets) and its history, and the MCP server for coding agents with the OAuth flow its clients sign in through.',
  Playground: 'Evaluating flags for a context without an SDK.',
  Maintenance: 'Maintenance mode: the installation refuses changes.',
  'Admin UI': 'What the console asks for itself: its configuration, seen splash screens, feedback prompts.',
  Operational: 'Liveness, readiness and Prometheus metrics.',
};

function tagOf(url: string): string {
  return TAGS.find(([pattern]) => pattern.test(url))?.[1] ?? 'Other';
}

/** getFeature-style ids from the method and path: GET /api/admin/projects/:projectId/features -> getApiAdminProjectsFeatures. */
function operationIdOf(method: string, url: string): string {
  const words = url
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? `by-${part.slice(1)}` : part === '*' ? 'any' : part));
  // Underscores stay: Unleash spells some paths both ways (release_plans and release-plans), each its own operation.
  const camel = words
    .join('-')
    .replace(/[^a-zA-Z0-9_]+(.)/g, (_match, next: string) => next.toUpperCase())
    .replace(/[^a-zA-Z0-9_]/g, '');
  return `${method.toLowerCase()}${camel.charAt(0).toUpperCase()}${camel.slice(1)}`;
}

/** Which credential an operation takes, by where it lives. */
function credentialOf(url: string): string {
  if (/^\/api\/frontend|^\/ofrep\//.test(url))
    return 'Takes a frontend API token (or a client token) in the Authorization header; it sees the flags of its projects in its environment.';
  if (url.startsWith('/api/client'))
    return 'Takes a client (backend) API token in the Authorization header; it sees the flags of its projects in its environment.';
  if (url.startsWith('/api/signal-endpoint/'))
    return "Takes one of the signal endpoint's own tokens as a Bearer token.";
  if (url.startsWith('/edge/')) return 'Takes an API token, as Unleash Edge sends it.';
  if (url.startsWith('/openfeature/'))
    return "Takes an admin API token or a personal access token as a Bearer token (as the OpenFeature CLI sends it) or a session cookie, with the permission the same change needs in /api/admin; refusals answer in the manifest API's shape, {error: {message, status, details}}.";
  if (/^\/(health|ready|internal-backstage)|^\/auth\/|^\/invite\/|^\/logout/.test(url))
    return 'Open: no credential is needed.';
  return 'Takes an admin API token, a personal access token or a session cookie; a caller without the permission it needs gets 403 naming it.';
}

/**
 * What the document says of an operation besides its summary: the credential it takes and, for a change, how the
 * change is kept. A route may give its own description in its schema instead.
 */
export function describeOperation(method: string, url: string, summary: string): string {
  const sentences = [summary.endsWith('.') ? summary : `${summary}.`, credentialOf(url)];
  if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(method) && /^\/(api\/admin|openfeature)\//.test(url)) {
    sentences.push(
      'A change is written with its events in one transaction (the event log shows it); where a project environment requires change requests, a change to what SDKs are served there is refused with 403 and is proposed as a change request instead.',
    );
  }
  return sentences.join(' ');
}

const errorSchema = z.toJSONSchema(ErrorBody);
const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});
/** The spec's error shape on every operation: what any route may answer besides its own success. */
const STANDARD_ERRORS: Record<string, ReturnType<typeof errorResponse>> = {
  400: errorResponse('ValidationError: the request does not match the schema'),
  401: errorResponse('AuthenticationRequired: no or an unknown credential'),
  403: errorResponse('NoAccessError: the credential lacks the permission named in the message'),
  404: errorResponse('NotFoundError: the resource does not exist'),
  503: errorResponse('ServiceUnavailableError: a dependency is down; try again after Retry-After'),
  default: errorResponse(
    'Any other refusal, in the same shape: 409 a conflict, 413 too large, 415 not JSON, 429 too many requests...',
  ),
};

const HIDDEN = [/^\/docs\//, /^\/assets\//, /^\/\*$/, /^\/$/];

/** POSTs answering 201 without a Location: an OAuth client registration (RFC 7591) has no address of its own. */
const WITHOUT_LOCATION = ['/oauth/register'];

/** A 201 response's schema with its Location header, in the form @fastify/swagger reads (a header as a JSON schema). */
const withLocation = (declared: unknown): Record<string, unknown> => ({
  ...(declared as Record<string, unknown>),
  headers: { location: { type: 'string', description: 'Where what was made is found' } },
});

/**
 * The OpenAPI document of the routes this process serves, generated from their zod schemas (as 3.1, served as 3.0.3
 * by openapi-30.ts): all-in-one it is the whole API; a single service documents its own routes. Must be registered before any route.
 */
export async function registerApiDocs(app: HttpServer, options: { version: string }) {
  registerExamples();
  const zodTransform = createJsonSchemaTransform({ skipList: [] });
  // Loaded here: a process that documents nothing (the standalone edge) does not carry the generator.
  const { default: swagger } = await import('@fastify/swagger');
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Bunting',
        version: options.version,
        description:
          'Unleash-compatible feature-flag service: the admin API, the SDK edge (frontend and client APIs, OFREP), signals, the event log and insights.',
      },
      components: {
        schemas: { Error: errorSchema as Record<string, unknown> },
        securitySchemes: {
          apiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: 'An API token (admin, client or frontend) or a personal access token',
          },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'unleash-session',
            description: 'The session cookie from /auth/simple/login or OIDC',
          },
        },
      },
      security: [{ apiKey: [] }, { session: [] }],
      tags: [...new Set(TAGS.map(([, tag]) => tag))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    },
    transform: (document) => {
      const { url, route } = document;
      const method = Array.isArray(route.method) ? route.method[0]! : route.method;
      // Browsers' CORS preflights and the console's own files are not operations anyone scripts.
      if (method === 'OPTIONS' || HIDDEN.some((pattern) => pattern.test(url))) return { schema: { hide: true }, url };
      const transformed = zodTransform(document);
      const schema = (transformed.schema ?? {}) as Record<string, unknown> & { response?: Record<string, unknown> };
      // zod leaves a body's examples out of its input schema when a field takes a number as text (a transform), so
      // the registered example is put back here.
      const body = document.schema?.body;
      const examples = body instanceof z.ZodType ? z.globalRegistry.get(body)?.examples : undefined;
      if (examples && schema.body && typeof schema.body === 'object' && !('examples' in schema.body))
        schema.body = { ...schema.body, examples };
      const response: Record<string, unknown> = { ...schema.response };
      for (const [status, error] of Object.entries(STANDARD_ERRORS)) response[status] ??= error;
      // What a POST made is found at its Location (the stack tests check each such answer carries one).
      if (method === 'POST' && response['201'] && !WITHOUT_LOCATION.includes(url))
        response['201'] = withLocation(response['201']);
      return {
        url: transformed.url,
        schema: {
          ...schema,
          tags: [tagOf(url)],
          operationId: operationIdOf(method, url),
          // Each route says what it does in its schema's summary; the document test refuses an operation without one.
          summary: (schema.summary as string | undefined) ?? `${method} ${url}`,
          description:
            (schema.description as string | undefined) ??
            describeOperation(method, url, (schema.summary as string | undefined) ?? `${method} ${url}`),
          response,
        },
      };
    },
  });
}

type OpenApiDocument = {
  paths?: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown> };
  tags?: { name: string }[];
};

/** Where a service running on its own answers with its document, so an admin-api apart from it can serve the whole API. */
const docsSubject = (messaging: Pick<Messaging, 'names'>, service: string) =>
  `${messaging.names.view('openapi')}.${service}`;

/** The union of several services' documents: every path, schema and tag of each (the first says what a clash means). */
export function mergeApiDocuments(base: OpenApiDocument, others: readonly OpenApiDocument[]): OpenApiDocument {
  const merged = {
    ...base,
    paths: { ...base.paths },
    components: { ...base.components, schemas: { ...base.components?.schemas } },
    tags: [...(base.tags ?? [])],
  };
  for (const other of others) {
    for (const [path, item] of Object.entries(other.paths ?? {})) merged.paths[path] ??= item;
    for (const [name, schema] of Object.entries(other.components?.schemas ?? {}))
      merged.components.schemas[name] ??= schema;
    for (const tag of other.tags ?? [])
      if (!merged.tags.some((known) => known.name === tag.name)) merged.tags.push(tag);
  }
  return merged;
}

/**
 * Serves the document at /docs/openapi.json and an interactive page at /docs/openapi. Registered after the routes.
 * A service running on its own also answers for its document over NATS (`publishAs`); an admin-api running apart
 * from the others (`union`) asks them and serves the union, leaving out any that does not answer within a second.
 */
export async function registerApiDocsRoutes(
  app: HttpServer,
  options: { messaging?: Messaging; publishAs?: readonly string[]; union?: readonly string[] } = {},
) {
  const { messaging } = options;
  const own = () => app.swagger() as OpenApiDocument;
  // Served as 3.0.3 (what Unleash serves); documents travel between services as generated and are rewritten once merged.
  let ownServed: OpenApiDocument | undefined;
  const served = () => (ownServed ??= openApi30(own()));
  const asked = async (service: string): Promise<OpenApiDocument[]> => {
    try {
      const reply = await messaging!.nc.request(docsSubject(messaging!, service), '', { timeout: 1000 });
      return [JSON.parse(gunzipSync(reply.data).toString('utf8')) as OpenApiDocument];
    } catch {
      return [];
    }
  };
  const whole = async () =>
    !messaging || !options.union?.length || !messaging.connected()
      ? own()
      : mergeApiDocuments(own(), (await Promise.all(options.union.map(asked))).flat());
  app.get('/docs/openapi.json', { schema: { hide: true } }, async () =>
    !messaging || !options.union?.length ? served() : openApi30(await whole()),
  );
  // The document as generated, in 3.1: it says what 3.0 cannot (a tuple, a type list); the typed client is made from it.
  app.get('/docs/openapi-3.1.json', { schema: { hide: true } }, whole);
  if (messaging) {
    for (const service of options.publishAs ?? []) {
      const subscription = messaging.nc.subscribe(docsSubject(messaging, service), {
        queue: `openapi-${service}`,
        callback: (error, message) => {
          if (!error) message.respond(gzipSync(JSON.stringify(own())));
        },
      });
      app.addHook('onClose', async () => subscription.unsubscribe());
    }
  }
  const { default: swaggerUi } = await import('@fastify/swagger-ui');
  await app.register(swaggerUi, {
    routePrefix: '/docs/openapi',
    staticCSP: true,
    uiConfig: { docExpansion: 'none', deepLinking: true },
  });
}
