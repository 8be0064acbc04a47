import { ADMIN_TOKEN_USER_ID, type Actor, type Principal } from '@bunting/contracts';

/** How events name the caller: the user, or the token's name with Unleash's admin-token user id. */
export function actorOf(principal: Principal): Actor {
  return {
    createdBy: principal.name,
    createdByUserId: principal.userId ?? (principal.tokenType === 'admin' ? ADMIN_TOKEN_USER_ID : null),
    ...(principal.via ? { createdVia: principal.via } : {}),
  };
}
