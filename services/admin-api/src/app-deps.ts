import type { CredentialVerifier, DatabasePool, Logger, Messaging, Redis } from '@bunting/platform';
import type { Changes } from './events/changes.ts';
import type { AdminConfig } from './admin-config.ts';
import type { SessionStore } from './sessions/user-sessions.ts';
import type { EmailOutbox } from './email/email-outbox.ts';
import type { Change } from './events/changes.ts';

import type { AgentDelegations } from './agent-tokens/agent-delegations.ts';

/** What every admin-api route module is built from. */
export type AdminDeps = {
  db: DatabasePool;
  changes: Changes;
  messaging: Messaging;
  redis: Redis;
  log: Logger;
  config: AdminConfig;
  verifier: CredentialVerifier;
  /** Signed-in users' sessions (Redis). */
  sessions: SessionStore;
  /** The credentials the MCP server calls the API with for an agent, one per MCP request (Redis). */
  delegations: AgentDelegations;
  /** Prefix of this installation's Redis keys and NATS subjects. */
  namespace: string;
  /** Mail queued with the change that causes it (nothing where no SMTP server is configured). */
  mail: EmailOutbox;
  /** A new user's one-time link to choose a password (Unleash's inviteLink), made with the account. */
  inviteLink: (change: Change, userId: number) => Promise<string>;
  /** Queues a new user's welcome mail with their invite link; false when none can be sent. */
  welcome: (
    change: Change,
    user: { id: number; email: string | null; name: string | null },
    inviteLink: string,
  ) => Promise<boolean>;
};
