import { z } from 'zod';
import { GroupList, GroupAnswer, NoContent, CreateGroup, NumericId } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { groupService } from './group-service.ts';

const IdParams = z.object({ groupId: NumericId });

export function groupRoutes(app: HttpServer, { db, changes }: AdminDeps) {
  app.get('/api/admin/groups', { schema: { summary: 'List the groups and their members', response: { 200: GroupList } } }, async (request) => {
    allowRead(request);
    return groupService.list(db);
  });
  app.post('/api/admin/groups', { schema: { summary: 'Create a group', body: CreateGroup, response: { 201: GroupAnswer } } }, async (request, reply) => {
    const principal = allow(request, Permission.ADMIN);
    return reply.code(201).send(await changes.run(principal, (change) => groupService.create(change, request.body)));
  });
  app.get('/api/admin/groups/:groupId', { schema: { summary: 'Get one group', params: IdParams, response: { 200: GroupAnswer } } }, async (request) => {
    allowRead(request);
    return groupService.get(db, request.params.groupId);
  });
  app.put('/api/admin/groups/:groupId', { schema: { summary: 'Change a group, its members and root role', params: IdParams, body: CreateGroup, response: { 200: GroupAnswer } } }, async (request) => {
    const principal = allow(request, Permission.ADMIN);
    return changes.run(principal, (change) => groupService.update(change, request.params.groupId, request.body));
  });
  app.delete('/api/admin/groups/:groupId', { schema: { summary: 'Delete a group', params: IdParams, response: { 200: NoContent } } }, async (request, reply) => {
    const principal = allow(request, Permission.ADMIN);
    await changes.run(principal, (change) => groupService.delete(change, request.params.groupId));
    return reply.code(200).send();
  });
}
