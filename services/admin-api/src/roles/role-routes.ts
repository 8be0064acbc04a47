import { z } from 'zod';
import { RoleList, PermissionList, RoleWithPermissions, NoContent, CreateRole, NumericId } from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow, allowRead } from '../access/guard.ts';
import { roleService } from './role-service.ts';

const IdParams = z.object({ roleId: NumericId });

export function roleRoutes(app: HttpServer, { db, changes }: Pick<AdminDeps, 'db' | 'changes'>) {
  app.get(
    '/api/admin/roles',
    { schema: { summary: 'List the roles, built-in and custom', response: { 200: RoleList } } },
    async (request) => {
      allowRead(request);
      return roleService.list(db);
    },
  );
  app.get(
    '/api/admin/permissions',
    {
      schema: {
        summary: 'Every permission, grouped as root, project and per environment',
        response: { 200: PermissionList },
      },
    },
    async (request) => {
      allowRead(request);
      return roleService.permissionCatalogue();
    },
  );
  app.post(
    '/api/admin/roles',
    {
      schema: {
        summary: 'Create a custom root or project role from permissions',
        body: CreateRole,
        // 200, not 201: what Unleash answers, and all its Terraform provider accepts.
        response: { 200: RoleWithPermissions },
      },
    },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      return reply.code(200).send(await changes.run(principal, (change) => roleService.create(change, request.body)));
    },
  );
  app.post(
    '/api/admin/roles/validate',
    {
      schema: {
        summary: 'Check that a role name is free',
        body: z.object({ name: z.string().min(1).max(100), roleId: z.number().optional() }),
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      allowRead(request);
      await roleService.validateName(db, request.body.name, request.body.roleId);
      return reply.code(200).send();
    },
  );
  app.get(
    '/api/admin/roles/:roleId',
    {
      schema: {
        summary: 'Get one role with its permissions',
        params: IdParams,
        response: { 200: RoleWithPermissions },
      },
    },
    async (request) => {
      allowRead(request);
      return roleService.get(db, request.params.roleId);
    },
  );
  app.put(
    '/api/admin/roles/:roleId',
    {
      schema: {
        summary: 'Change a custom role',
        params: IdParams,
        body: CreateRole,
        response: { 200: RoleWithPermissions },
      },
    },
    async (request) => {
      const principal = allow(request, Permission.ADMIN);
      return changes.run(principal, (change) => roleService.update(change, request.params.roleId, request.body));
    },
  );
  app.delete(
    '/api/admin/roles/:roleId',
    { schema: { summary: 'Delete a custom role nobody has', params: IdParams, response: { 200: NoContent } } },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      await changes.run(principal, (change) => roleService.delete(change, request.params.roleId));
      return reply.code(200).send();
    },
  );
}
