import { createHash, randomUUID } from 'node:crypto';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { answerSerializerCompiler } from './answer-serializer.ts';
import { SESSION_COOKIE } from './credentials.ts';
import { DomainError, NotFoundError, ValidationError } from './errors.ts';
import { sendError } from './http-errors.ts';
import { readJsonBody, refuseOtherCharset } from './json-body.ts';
import type { Logger } from './logger.ts';
import { DURATION_BUCKETS, type Metrics } from './metrics.ts';
import {
  SpanKind,
  contextFromCarrier,
  contextWithSpan,
  markSpanFailed,
  runInContext,
  startSpan,
  tracingActive,
  type Span,
} from './telemetry.ts';

export type HttpServer = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  Logger,
  ZodTypeProvider
>;

/** A service as the launcher registers it: a plugin handed the server as HttpServer, typed by its zod schemas. */
export type ServicePlugin = FastifyPluginAsync<
  Record<never, never>,
  import('node:http').Server,
  ZodTypeProvider,
  Logger
>;

/**
 * Routes in an encapsulated scope of their own (hooks added there, such as authentication, apply to them alone),
 * typed as the server itself: a plugin typed with the server's type provider and logger is handed an instance
 * typed the same.
 */
export async function inScope(app: HttpServer, routes: (scope: HttpServer) => Promise<void> | void): Promise<void> {
  const plugin: ServicePlugin = async (scope) => {
    await routes(scope);
  };
  await app.register(plugin);
}

declare module 'fastify' {
  interface FastifyRequest {
    span?: Span;
  }
  interface FastifyContextConfig {
    /** The route's 200 answers carry an ETag; a request naming it gets a 304 without the body (pages that poll). */
    etag?: boolean;
  }
}

const processPrefix = randomUUID().slice(0, 8);
let requestCounter = 0;

/** Fastify with zod schemas, the spec's error bodies, JSON parsing that never crashes and a span per request. */
/** The path with each run of slashes made one; the query is left as it is. Cheap when there is nothing to do. */
export function collapseSlashes(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  if (!path.includes('//')) return url;
  return path.replace(/\/{2,}/g, '/') + (queryAt === -1 ? '' : url.slice(queryAt));
}

/** Fastify's factory types speak Ajv's; at run time a factory only has to return the compiler it gives every route. */
const zodCompilers = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => answerSerializerCompiler,
} as unknown as NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/**
 * The service's logger as Fastify's, its children being itself: the per-request child logger Fastify makes is
 * measurable at the SDK edge's rates (the few request-level log lines name the request id themselves, see
 * sendError), and a factory of our own that skips it makes Fastify check the logger it returns on every request.
 */
function requestLogger(log: Logger): Logger {
  const shared: Logger = Object.create(log);
  // pino types a child by its custom levels; this one has none.
  Object.defineProperty(shared, 'child', { value: () => shared });
  return shared;
}

export function createHttpServer(options: {
  log: Logger;
  bodyLimit: number;
  trustProxy?: readonly string[];
  publicUrl?: string | undefined;
  metrics?: Metrics;
  /** Log the SDK edge's successful answers too (one line each): off by default, as they are its hot path. */
  logSdkRequests?: boolean;
}): HttpServer {
  const trusted = options.trustProxy ?? [];
  const publicOrigin = options.publicUrl ? new URL(options.publicUrl).origin : undefined;
  const app = Fastify({
    loggerInstance: requestLogger(options.log),
    bodyLimit: options.bodyLimit,
    // Forwarded headers count only from the configured proxies (addresses or CIDRs).
    trustProxy: trusted.length > 0 ? [...trusted] : false,
    // One log line per request would dominate the SDK edge's cost; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    // A counter under a per-process prefix: unique for log correlation, and a UUID per request costs more.
    genReqId: () => `${processPrefix}-${(requestCounter += 1).toString(36)}`,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // `//api/admin/tags` is `/api/admin/tags`, for routing and authentication alike, as Unleash strips the extra slashes.
    rewriteUrl: (request) => collapseSlashes(request.url ?? '/'),
    return503OnClosing: true,
    // Routes validate and answer through their zod schemas; naming the compilers here keeps Fastify from loading Ajv
    // and fast-json-stringify for defaults no route uses (about 3 MiB of the SDK edge's memory).
    schemaController: { compilersFactory: zodCompilers },
    // Requests Node refuses before routing (a header or URL too large, a broken request line) still get the error shape.
    clientErrorHandler: (error, socket) => {
      if (!socket.writable) return;
      const tooLarge = (error as { code?: string }).code === 'HPE_HEADER_OVERFLOW';
      const status = tooLarge ? 431 : 400;
      const body = JSON.stringify({
        id: randomUUID(),
        name: 'ValidationError',
        message: tooLarge ? 'The request headers or URL are too large.' : 'The request could not be parsed.',
      });
      socket.end(
        `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializerCompiler);

  // Bodies are JSON only: a text/plain body is refused (415) like any other type.
  app.removeContentTypeParser('text/plain');
  // Unleash SDKs and scripts send bodiless writes with a JSON content type; treat an empty body as none.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, raw, done) => {
    try {
      refuseOtherCharset(request.headers['content-type']);
      done(null, readJsonBody(typeof raw === 'string' ? raw : raw.toString('utf8')));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  // One hook for every request's checks, as each hook is a step of its own on the SDK edge's hot path.
  app.addHook('onRequest', (request, _reply, done) => {
    // The same as for bodies: a NUL in a path or query value could never be stored or looked up.
    if (request.url.includes('%00') || request.url.includes('\0'))
      return done(new ValidationError('The URL must not contain NUL characters.'));
    // A write carrying a session cookie must come from this installation's own pages: the cookie is SameSite=Lax,
    // and the Origin (or, without one, Sec-Fetch-Site) must say so. API tokens are not cookies and pass.
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return done();
    if (request.headers.authorization || !request.headers.cookie?.includes(`${SESSION_COOKIE}=`)) return done();
    if (isSameOrigin(request, publicOrigin)) return done();
    done(
      new DomainError(
        403,
        'NoAccessError',
        "A change made with a session must come from Bunting's own pages; this cross-site request was refused.",
      ),
    );
  });

  // While closing, answers to requests already in flight close their connection, so keep-alive sockets
  // do not hold the shutdown open until their idle timeout.
  let draining = false;
  app.addHook('preClose', (done) => {
    draining = true;
    done();
  });
  // One hook for what every answer may need, as for the requests' checks above; before the not-found handler, so
  // its answers have it too.
  app.addHook('onSend', (request, reply, payload, done) => {
    const url = request.url;
    // Answers a browser may show say how it may show them; the SDK edge's answers (Unleash's and OFREP's) are read by
    // code only (and are its hot path), so they go without: four headers were about a tenth of an OFREP bulk answer's
    // CPU at 200 flags.
    if (!url.startsWith('/api/frontend') && !url.startsWith('/api/client/') && !url.startsWith('/ofrep/')) {
      reply.header('x-content-type-options', 'nosniff');
      reply.header('x-frame-options', 'DENY');
      reply.header('referrer-policy', 'same-origin');
      if (!reply.hasHeader('content-security-policy'))
        reply.header('content-security-policy', "frame-ancestors 'none'");
    }
    if (draining) reply.header('connection', 'close');
    // The SDK edge's answers are Buffers: they leave here before the route's options are looked up (a getter that
    // builds them anew each time).
    if (
      typeof payload !== 'string' ||
      request.method !== 'GET' ||
      reply.statusCode !== 200 ||
      !request.routeOptions.config.etag
    )
      return done(null, payload);
    const etag = `W/"${createHash('sha1').update(payload).digest('base64url')}"`;
    reply.header('etag', etag);
    // The browser keeps the answer but asks again each time, naming the copy it has.
    reply.header('cache-control', 'private, no-cache');
    if (request.headers['if-none-match'] !== etag) return done(null, payload);
    reply.code(304);
    done(null, '');
  });

  // Before the not-found handler, which takes the hooks registered up to then.
  observeRequests(app, options.log, options.metrics, options.logSdkRequests ?? false);

  app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((request, reply) =>
    sendError(new NotFoundError(`Could not find ${request.method} ${request.url.split('?')[0]}`), request, reply),
  );

  // A span per request only when a tracer provider is registered (the launcher starts telemetry first):
  // the hooks alone cost the SDK edge a few per cent.
  if (tracingActive()) {
    app.addHook('onRequest', (request, _reply, done) => {
      const parent = contextFromCarrier(request.headers as Record<string, string>);
      const span = startSpan(`HTTP ${request.method}`, SpanKind.SERVER, parent, {
        'http.request.method': request.method,
        'url.path': request.url.split('?')[0],
        'http.request.id': request.id,
      });
      request.span = span;
      // Later hooks and the handler run inside this context, so spans they start become children.
      runInContext(contextWithSpan(parent, span), done);
    });
    app.addHook('onResponse', (request: FastifyRequest, reply, done) => {
      const span = request.span;
      if (span) {
        if (request.routeOptions.url) span.updateName(`${request.method} ${request.routeOptions.url}`);
        span.setAttribute('http.response.status_code', reply.statusCode);
        if (reply.statusCode >= 500) markSpanFailed(span);
        span.end();
      }
      done();
    });
  }
  return app;
}

const SDK_PATHS = /^\/(api\/frontend|api\/client\/|ofrep\/)/;

/**
 * One JSON line per request (its id, which error answers carry too, route, status, duration; the path without
 * its query) and the duration histogram by route pattern, method and status. The SDK edge's successful answers
 * are counted but not logged unless asked for. The labelled child is kept per combination, so a request costs a
 * map lookup and an observation.
 */
function observeRequests(app: HttpServer, log: Logger, metrics: Metrics | undefined, logSdkRequests: boolean) {
  const histogram = metrics?.histogram(
    'bunting_http_request_duration_seconds',
    'HTTP requests by route pattern, method and status',
    ['route', 'method', 'status'],
    DURATION_BUCKETS,
  );
  // By route, then method and status: no label text is made per request.
  const children = new Map<string, Map<string, Map<number, { observe: (seconds: number) => void }>>>();
  app.addHook('onResponse', (request, reply, done) => {
    // Unrouted requests share one label, so a scan of random URLs cannot grow the label set.
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    if (histogram) {
      let byMethod = children.get(route);
      if (byMethod === undefined) children.set(route, (byMethod = new Map()));
      let byStatus = byMethod.get(request.method);
      if (byStatus === undefined) byMethod.set(request.method, (byStatus = new Map()));
      let child = byStatus.get(status);
      if (child === undefined) byStatus.set(status, (child = histogram.child(route, request.method, String(status))));
      child.observe(ms / 1000);
    }
    if (status >= 400 || logSdkRequests || !SDK_PATHS.test(request.url)) {
      const line = {
        reqId: request.id,
        method: request.method,
        route,
        path: request.url.split('?')[0],
        status,
        ms: Math.round(ms * 10) / 10,
        traceId: request.span?.spanContext().traceId,
      };
      if (status >= 500) log.error(line, 'request');
      else log.info(line, 'request');
    }
    done();
  });
}

/** The path of the first string (value or key) in a parsed body that is not well-formed Unicode, or null. */
/**
 * Whether a request comes from this installation's own pages: its Origin is ours, or the browser says so. With a
 * public address configured, only that origin is ours: the Host header is the client's to choose (a page elsewhere
 * reaching the server under another name would otherwise pass).
 */
function isSameOrigin(request: FastifyRequest, publicOrigin: string | undefined): boolean {
  const origin = request.headers.origin;
  if (typeof origin !== 'string') {
    const site = request.headers['sec-fetch-site'];
    return site === undefined || site === 'same-origin' || site === 'none';
  }
  if (publicOrigin !== undefined) return origin === publicOrigin;
  return origin === `${request.protocol}://${request.host}`;
}
