import { z } from 'zod';
import { ContextField, CreateContextField, LegalValue, PathName, UpdateContextField } from '@bunting/contracts';
import { Permission, sql, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { actorFor, allowRead } from '../access/guard.ts';
import { contextFieldService, requireContextField } from './context-field-service.ts';

const NameParams = z.object({ contextField: PathName });

export function contextFieldRoutes(app: HttpServer, { db, changes }: AdminDeps) {
  app.get('/api/admin/context', { schema: { response: { 200: z.array(ContextField) } } }, async (request) => {
    allowRead(request);
    return contextFieldService.list(db);
  });

  app.post('/api/admin/context', { schema: { body: CreateContextField, response: { 201: ContextField } } }, async (request, reply) => {
    const actor = actorFor(request, Permission.CREATE_CONTEXT_FIELD);
    const created = await changes.run(actor, (change) => contextFieldService.create(change, request.body));
    return reply.code(201).header('location', `/api/admin/context/${encodeURIComponent(created.name)}`).send(created);
  });

  app.post('/api/admin/context/validate', { schema: { body: z.object({ name: CreateContextField.shape.name }) } }, async (request, reply) => {
    allowRead(request);
    await contextFieldService.validateName(db, request.body.name);
    return reply.code(200).send();
  });

  app.get('/api/admin/context/:contextField', { schema: { params: NameParams, response: { 200: ContextField } } }, async (request) => {
    allowRead(request);
    return requireContextField(db, request.params.contextField);
  });

  // The strategies whose constraints use the field, so it can be told what deleting it would affect.
  app.get('/api/admin/context/:contextField/strategies', { schema: { params: NameParams } }, async (request) => {
    allowRead(request);
    const strategies = await db.any(sql.type(z.object({ id: z.string(), featureName: z.string(), projectId: z.string(), environment: z.string(), strategyName: z.string() }))`
      select s.id, s.feature_name as "featureName", f.project_id as "projectId", s.environment, s.strategy_name as "strategyName"
      from admin.feature_strategies s join admin.features f on f.name = s.feature_name
      where f.archived_at is null and exists (
        select 1 from jsonb_array_elements(s.constraints) c where c ->> 'contextName' = ${request.params.contextField})
      order by s.feature_name, s.environment, s.sort_order`);
    return { strategies };
  });

  app.put('/api/admin/context/:contextField', { schema: { params: NameParams, body: UpdateContextField } }, async (request, reply) => {
    const actor = actorFor(request, Permission.UPDATE_CONTEXT_FIELD);
    await changes.run(actor, (change) => contextFieldService.update(change, request.params.contextField, request.body));
    return reply.code(200).send();
  });

  app.post('/api/admin/context/:contextField/legal-values', { schema: { params: NameParams, body: LegalValue } }, async (request, reply) => {
    const actor = actorFor(request, Permission.UPDATE_CONTEXT_FIELD);
    await changes.run(actor, (change) => contextFieldService.addLegalValue(change, request.params.contextField, request.body));
    return reply.code(200).send();
  });

  app.delete('/api/admin/context/:contextField/legal-values/:legalValue', {
    schema: { params: NameParams.extend({ legalValue: PathName }) },
  }, async (request, reply) => {
    const actor = actorFor(request, Permission.UPDATE_CONTEXT_FIELD);
    await changes.run(actor, (change) => contextFieldService.removeLegalValue(change, request.params.contextField, request.params.legalValue));
    return reply.code(200).send();
  });

  app.delete('/api/admin/context/:contextField', { schema: { params: NameParams } }, async (request, reply) => {
    const actor = actorFor(request, Permission.DELETE_CONTEXT_FIELD);
    await changes.run(actor, (change) => contextFieldService.delete(change, request.params.contextField));
    return reply.code(200).send();
  });
}
