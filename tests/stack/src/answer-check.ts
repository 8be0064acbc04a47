import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { HttpServer } from '@bunting/platform';

type Responses = Record<string, { content?: Record<string, { schema?: unknown }>; headers?: Record<string, unknown> }>;
type Document = { paths: Record<string, Record<string, { responses?: Responses }>> };

/** A JSON pointer into the document, as a URI fragment (each segment escaped twice: pointer, then URI). */
const pointer = (...segments: string[]) =>
  `#/${segments.map((segment) => encodeURIComponent(segment.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/')}`;

/** A compressed answer's text. */
function decoded(body: Buffer, encoding: unknown): string {
  if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
  if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  if (encoding === 'deflate') return inflateSync(body).toString('utf8');
  return body.toString('utf8');
}

/**
 * A test-only hook: every answer the stack sends is checked against its operation in the stack's own OpenAPI
 * document (/docs/openapi.json) for the status sent, so the document cannot drift from what the routes answer.
 * A status the operation does not list, a body its schema refuses, or a field the handler gave that its schema
 * dropped or wrote otherwise, is a violation; the stack's disposal fails with them. Answers of routes the document hides (the
 * console, the docs themselves) are not checked.
 */
export function checkAnswersAgainstDocument(app: HttpServer): { violations: () => string[] } {
  const violations: string[] = [];
  const validators = new Map<string, ValidateFunction>();
  let ajv: Ajv2020 | undefined;
  let document: Document | undefined;

  const validatorFor = (path: string, method: string, status: string): ValidateFunction => {
    const key = `${method} ${path} ${status}`;
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv!.compile({
        $ref: `openapi${pointer('paths', path, method, 'responses', status, 'content', 'application/json', 'schema')}`,
      });
      validators.set(key, validate);
    }
    return validate;
  };

  // What a handler returned, before its schema shaped it: a field the schema drops is one the document does not
  // list, and a value written otherwise (a string where a number is declared) is a contract that is wrong.
  const raw = new WeakMap<object, unknown>();
  app.addHook('preSerialization', async (request, _reply, payload) => {
    raw.set(request, JSON.parse(JSON.stringify(payload ?? null)));
    return payload;
  });
  // Where the written answer differs from what the handler gave: a field left out, or a value written otherwise.
  const differences = (before: unknown, after: unknown, path: string, out: string[]) => {
    if (Array.isArray(before) && Array.isArray(after))
      before.forEach((item, index) => differences(item, after[index], `${path}[]`, out));
    else if (before && typeof before === 'object' && after && typeof after === 'object') {
      for (const key of Object.keys(before)) {
        if (!(key in after)) out.push(`${path}.${key} left out`);
        else
          differences(
            (before as Record<string, unknown>)[key],
            (after as Record<string, unknown>)[key],
            `${path}.${key}`,
            out,
          );
      }
    } else if (before !== after) out.push(`${path} ${JSON.stringify(before)} written as ${JSON.stringify(after)}`);
  };
  app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions.url;
    if (!route || request.method === 'HEAD' || request.method === 'OPTIONS') return payload;
    if (!document) {
      document = app.swagger() as unknown as Document;
      ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
      addFormats.default(ajv);
      ajv.addSchema(document, 'openapi');
    }
    const path = route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const method = request.method.toLowerCase();
    const responses = document.paths[path]?.[method]?.responses;
    if (!responses) return payload;
    const status = String(reply.statusCode);
    // A conditional GET's 304 is HTTP's answer, not the operation's.
    if (status === '304') return payload;
    // `default` stands for the refusals an operation does not list one by one; a success must be declared as itself.
    const refusal = reply.statusCode >= 400;
    const declared = responses[status]
      ? status
      : responses[`${status[0]}XX`]
        ? `${status[0]}XX`
        : refusal && responses.default
          ? 'default'
          : undefined;
    const where = `${request.method} ${route} -> ${status}`;
    if (!declared) {
      violations.push(`${where}: the document lists no such status (it lists ${Object.keys(responses).join(', ')})`);
      return payload;
    }
    // A response declared with a Location (what a POST made) must carry one.
    if (responses[declared]!.headers?.location && !reply.getHeader('location'))
      violations.push(`${where}: no Location header, which the document promises`);
    const text =
      typeof payload === 'string'
        ? payload
        : Buffer.isBuffer(payload)
          ? decoded(payload, reply.getHeader('content-encoding'))
          : undefined;
    const json = String(reply.getHeader('content-type') ?? '').startsWith('application/json');
    if (text === undefined || text === '' || !json) return payload;
    if (!responses[declared]!.content?.['application/json']?.schema) {
      violations.push(`${where}: a JSON body where the document says there is none`);
      return payload;
    }
    if (raw.has(request)) {
      const changed: string[] = [];
      differences(raw.get(request), JSON.parse(text), '', changed);
      if (changed.length > 0)
        violations.push(`${where}: its schema changes what the route gave: ${[...new Set(changed)].join(', ')}`);
    }
    const validate = validatorFor(path, method, declared);
    if (!validate(JSON.parse(text))) {
      violations.push(`${where}: ${ajv!.errorsText(validate.errors, { separator: '; ' })} in ${text.slice(0, 300)}`);
    }
    return payload;
  });
  return { violations: () => [...violations] };
}
