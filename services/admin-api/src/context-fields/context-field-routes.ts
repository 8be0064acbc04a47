import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  StrategiesUsing,
  NoContent,
  ContextField,
  CreateContextField,
  LegalValue,
  PathName,
  UpdateContextField,
} from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { requireProject } from '../projects/project-read-model.ts';
import { contextFieldService, contextFieldWithUsage, requireContextField } from './context-field-service.ts';

const NameParams = z.object({ contextField: PathName });

/**
 * Context fields, instance-wide under /api/admin/context and per project under /api/admin/projects/:projectId/context
 * (fields created there belong to the project; the project paths see only its own fields).
 */
export function contextFieldRoutes(app: HttpServer, deps: Pick<AdminDeps, 'db' | 'changes'>) {
  contextFieldRoutesAt(app, deps, '/api/admin/context', NameParams, () => undefined, {
    list: 'List the context fields',
    create: 'Create a context field',
    validate: 'Check that a context field name is free',
    get: 'Get one context field',
    change: 'Change a context field',
    remove: 'Delete a context field',
    strategies: 'The strategies whose constraints use a context field',
    addValue: 'Add or change one legal value of a context field',
    removeValue: 'Remove a legal value from a context field',
  });
  contextFieldRoutesAt(
    app,
    deps,
    '/api/admin/projects/:projectId/context',
    NameParams.extend({ projectId: PathName }),
    (request) => (request.params as { projectId: string }).projectId,
    {
      list: 'List the context fields a project sees (its own and the global ones)',
      create: "Create a context field of a project's own",
      validate: 'Check that a project context field name is free',
      get: "Get one of a project's context fields",
      change: "Change one of a project's context fields",
      remove: "Delete one of a project's context fields",
      strategies: "The project's strategies whose constraints use a context field",
      addValue: "Add or change a legal value of a project's context field",
      removeValue: "Remove a legal value from a project's context field",
    },
  );
}

type Summaries = Record<
  'list' | 'create' | 'validate' | 'get' | 'change' | 'remove' | 'strategies' | 'addValue' | 'removeValue',
  string
>;

function contextFieldRoutesAt(
  app: HttpServer,
  { db, changes }: Pick<AdminDeps, 'db' | 'changes'>,
  base: string,
  Params: typeof NameParams,
  projectOf: (request: FastifyRequest) => string | undefined,
  summary: Summaries,
) {
  const ListParams = Params.omit({ contextField: true });
  const scope = (request: FastifyRequest) => ({ project: projectOf(request) });
  const requireProjectExists = async (request: FastifyRequest) => {
    const project = projectOf(request);
    if (project !== undefined) await requireProject(db, project);
  };

  // `include=root` on a project's path adds the instance-wide fields, as Unleash's strategy form asks for every field
  // a project's strategies may use; the instance-wide path already lists every field.
  const ListQuery = z.object({ include: z.string().max(100).optional() });
  app.get(
    base,
    {
      schema: {
        summary: summary.list,
        params: ListParams,
        querystring: ListQuery,
        response: { 200: z.array(ContextField) },
      },
    },
    async (request) => {
      allowRead(request, scope(request));
      await requireProjectExists(request);
      const include = (request.query.include ?? '').split(',').map((part) => part.trim());
      return contextFieldService.list(db, projectOf(request), include.includes('root'));
    },
  );

  app.post(
    base,
    {
      schema: {
        summary: summary.create,
        params: ListParams,
        body: CreateContextField,
        response: { 201: ContextField },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.CREATE_CONTEXT_FIELD, scope(request));
      await requireProjectExists(request);
      const project = projectOf(request);
      const created = await changes.run(principal, (change) =>
        contextFieldService.create(change, { ...request.body, ...(project !== undefined ? { project } : {}) }),
      );
      return reply
        .code(201)
        .header('location', `${request.url.split('?')[0]}/${encodeURIComponent(created.name)}`)
        .send(created);
    },
  );

  app.post(
    `${base}/validate`,
    {
      schema: {
        summary: summary.validate,
        params: ListParams,
        body: z.object({ name: CreateContextField.shape.name }),
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      allowRead(request, scope(request));
      await contextFieldService.validateName(db, request.body.name);
      return reply.code(200).send();
    },
  );

  app.get(
    `${base}/:contextField`,
    { schema: { summary: summary.get, params: Params, response: { 200: ContextField } } },
    async (request) => {
      allowRead(request, scope(request));
      return contextFieldWithUsage(db, request.params.contextField, projectOf(request));
    },
  );

  // The strategies whose constraints use the field, so it can be told what deleting it would affect.
  app.get(
    `${base}/:contextField/strategies`,
    { schema: { summary: summary.strategies, params: Params, response: { 200: StrategiesUsing } } },
    async (request) => {
      allowRead(request, scope(request));
      return contextFieldService.strategiesUsing(db, request.params.contextField, projectOf(request));
    },
  );

  app.put(
    `${base}/:contextField`,
    { schema: { summary: summary.change, params: Params, body: UpdateContextField, response: { 200: NoContent } } },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_CONTEXT_FIELD, scope(request));
      await changes.run(principal, async (change) => {
        await requireContextField(change.tx, request.params.contextField, projectOf(request));
        return contextFieldService.update(change, request.params.contextField, request.body);
      });
      return reply.code(200).send();
    },
  );

  app.post(
    `${base}/:contextField/legal-values`,
    { schema: { summary: summary.addValue, params: Params, body: LegalValue, response: { 200: NoContent } } },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_CONTEXT_FIELD, scope(request));
      await changes.run(principal, async (change) => {
        await requireContextField(change.tx, request.params.contextField, projectOf(request));
        return contextFieldService.addLegalValue(change, request.params.contextField, request.body);
      });
      return reply.code(200).send();
    },
  );

  app.delete(
    `${base}/:contextField/legal-values/:legalValue`,
    {
      schema: {
        summary: summary.removeValue,
        params: Params.extend({ legalValue: PathName }),
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.UPDATE_CONTEXT_FIELD, scope(request));
      await changes.run(principal, async (change) => {
        await requireContextField(change.tx, request.params.contextField, projectOf(request));
        return contextFieldService.removeLegalValue(change, request.params.contextField, request.params.legalValue);
      });
      return reply.code(200).send();
    },
  );

  app.delete(
    `${base}/:contextField`,
    { schema: { summary: summary.remove, params: Params, response: { 200: NoContent } } },
    async (request, reply) => {
      const principal = allow(request, Permission.DELETE_CONTEXT_FIELD, scope(request));
      await changes.run(principal, async (change) => {
        await requireContextField(change.tx, request.params.contextField, projectOf(request));
        return contextFieldService.delete(change, request.params.contextField);
      });
      return reply.code(200).send();
    },
  );
}
