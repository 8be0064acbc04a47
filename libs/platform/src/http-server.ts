import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance, type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { NotFoundError, ValidationError } from './errors.ts';
import { sendError } from './http-errors.ts';
import type { Logger } from './logger.ts';
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

declare module 'fastify' {
  interface FastifyRequest {
    span?: Span;
  }
}

const processPrefix = randomUUID().slice(0, 8);
let requestCounter = 0;

/** Fastify with zod schemas, the spec's error bodies, JSON parsing that never crashes and a span per request. */
export function createHttpServer(options: { log: Logger; bodyLimit: number }): HttpServer {
  const app = Fastify({
    loggerInstance: options.log,
    bodyLimit: options.bodyLimit,
    trustProxy: true,
    // One log line per request would dominate the SDK edge's cost; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    // A counter under a per-process prefix: unique for log correlation, and a UUID per request costs more.
    genReqId: () => `${processPrefix}-${(requestCounter += 1).toString(36)}`,
    // The per-request child logger Fastify makes by default is measurable at the SDK edge's rates; the few
    // request-level log lines name the request id themselves (see sendError).
    childLoggerFactory: (logger) => logger,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    return503OnClosing: true,
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
      socket.end(`HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Unleash SDKs and scripts send bodiless writes with a JSON content type; treat an empty body as none.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, raw, done) => {
    const text = typeof raw === 'string' ? raw : raw.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    // Postgres text and jsonb cannot hold NUL; refuse it here rather than fail deep inside a write.
    if (text.includes('\\u0000') || text.includes('\0')) return done(new ValidationError('Text in the request body must not contain NUL characters.'), undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      const error = new SyntaxError('invalid JSON') as SyntaxError & { statusCode: number };
      error.statusCode = 400;
      done(error, undefined);
    }
  });

  // The same for the URL: a NUL in a path or query value could never be stored or looked up.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.url.includes('%00') || request.url.includes('\0')) return done(new ValidationError('The URL must not contain NUL characters.'));
    done();
  });

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
  // While closing, answers to requests already in flight close their connection, so keep-alive sockets
  // do not hold the shutdown open until their idle timeout.
  let draining = false;
  app.addHook('preClose', (done) => {
    draining = true;
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
  return app;
}
