import { z } from 'zod';
import {
  SignupTokenList,
  SignupTokenView,
  NoContent,
  CreateInvitedUser,
  CreateSignupToken,
  UpdateSignupToken,
  User,
} from '@bunting/contracts';
import { Permission, type HttpServer } from '@bunting/platform';
import type { AdminDeps } from '../app-deps.ts';
import { allow } from '../access/guard.ts';
import { createInviteService } from './invite-service.ts';

const TokenParams = z.object({ token: z.string().min(1).max(200) });

/** Invite links (admin side) and the public signup they allow. */
export function inviteRoutes(app: HttpServer, { db, changes, config }: Pick<AdminDeps, 'db' | 'changes' | 'config'>) {
  const invites = createInviteService(config.baseUrl, config.passwordHashing);

  app.get(
    '/api/admin/invite-link/tokens',
    { schema: { summary: 'List the invite links', response: { 200: SignupTokenList } } },
    async (request) => {
      allow(request, Permission.ADMIN);
      return invites.list(db);
    },
  );
  app.post(
    '/api/admin/invite-link/tokens',
    { schema: { summary: 'Create an invite link', body: CreateSignupToken, response: { 201: SignupTokenView } } },
    async (request, reply) => {
      const principal = allow(request, Permission.ADMIN);
      const created = await changes.run(principal, (change) => invites.create(change, request.body));
      return reply
        .code(201)
        .header('location', `/api/admin/invite-link/tokens/${encodeURIComponent(created.secret)}`)
        .send(created);
    },
  );
  app.get(
    '/api/admin/invite-link/tokens/:token',
    {
      schema: {
        summary: 'Get one invite link and who signed up through it',
        params: TokenParams,
        response: { 200: SignupTokenView },
      },
    },
    async (request) => {
      allow(request, Permission.ADMIN);
      return invites.get(db, request.params.token);
    },
  );
  app.put(
    '/api/admin/invite-link/tokens/:token',
    {
      schema: {
        summary: 'Change when an invite link expires',
        params: TokenParams,
        body: UpdateSignupToken,
        response: { 200: SignupTokenView },
      },
    },
    async (request) => {
      const principal = allow(request, Permission.ADMIN);
      return changes.run(principal, (change) => invites.update(change, request.params.token, request.body));
    },
  );
}

/** Routes a person without an account uses: no credential needed. */
export function publicInviteRoutes(
  app: HttpServer,
  { db, changes, config }: Pick<AdminDeps, 'db' | 'changes' | 'config'>,
) {
  const invites = createInviteService(config.baseUrl, config.passwordHashing);
  app.get(
    '/invite/:token/validate',
    {
      schema: {
        summary: 'Check that an invite link is still valid',
        params: TokenParams,
        response: { 200: NoContent },
      },
    },
    async (request, reply) => {
      await invites.validate(db, request.params.token);
      return reply.code(200).send();
    },
  );
  app.post(
    '/invite/:token/signup',
    {
      schema: {
        summary: 'Sign up through an invite link',
        params: TokenParams,
        body: CreateInvitedUser,
        response: { 200: User },
      },
    },
    async (request) => invites.signup(changes, request.params.token, request.body),
  );
}
