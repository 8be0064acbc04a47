import { z } from 'zod';
import { GroupList, GroupAnswer, NoContent, CreateGroup, NumericId } from '@bunting/contracts';
import { OperationRefused, Permission, type HttpServer, type Queryable } from '@bunting/platform';
import { groupReadModel, requireGroup } from './group-read-model.ts';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { groupService } from './group-service.ts';

const IdParams = z.object({ groupId: NumericId });

/**
 * A group an identity provider manages through SCIM keeps its name and members as the provider sends them; an
 * admin may still give it a root role, a description and SSO mappings here.
 */
async function refuseManaged(
  db: Queryable,
  id: number,
  input?: { name: string; users?: { user: { id: number } }[] | undefined },
) {
  const group = await requireGroup(db, id);
  if (!group.scimId) return;
  const members = await groupReadModel.memberIds(db, id);
  const sameMembers =
    input?.users === undefined ||
    JSON.stringify(input.users.map((entry) => entry.user.id).sort()) === JSON.stringify([...members].sort());
  if (!input || input.name !== group.name || !sameMembers) {
    throw new OperationRefused(
      `The group ${group.name} is managed by your identity provider through SCIM: change its name and members there.`,
    );
  }
}

export function groupRoutes(app: HttpServer, { db, changes }: AdminDeps) {
  app.get(
    '/api/admin/groups',
    { schema: { summary: 'List the groups and their members', response: { 200: GroupList } } },
    async (request) => {
      allowRead(request);
      return groupService.list(db);
    },
  );
  app.post(
    '/api/admin/groups',
    { schema: { summary: 'Create a group', body: CreateGroup, response: { 201: GroupAnswer } } },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      const created = await changes.run(principal, (change) => groupService.create(change, request.body));
      return reply.code(201).header('location', `/api/admin/groups/${created.id}`).send(created);
    },
  );
  app.get(
    '/api/admin/groups/:groupId',
    { schema: { summary: 'Get one group', params: IdParams, response: { 200: GroupAnswer } } },
    async (request) => {
      allowRead(request);
      return groupService.get(db, request.params.groupId);
    },
  );
  app.put(
    '/api/admin/groups/:groupId',
    {
      schema: {
        summary: 'Change a group, its members and root role',
        params: IdParams,
        body: CreateGroup,
        response: { 200: GroupAnswer },
      },
    },
    async (request) => {
      const principal = allow(request, Permission.ADMIN);
      await refuseManaged(db, request.params.groupId, request.body);
      return changes.run(principal, (change) => groupService.update(change, request.params.groupId, request.body));
    },
  );
  app.delete(
    '/api/admin/groups/:groupId',
    { schema: { summary: 'Delete a group', params: IdParams, response: { 200: NoContent } } },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      await refuseManaged(db, request.params.groupId);
      await changes.run(principal, (change) => groupService.delete(change, request.params.groupId));
      return reply.code(200).send();
    },
  );
}
