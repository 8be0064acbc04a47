import type { MetricsMessage } from '@bunting/contracts';
import { DomainError, type Messaging } from '@bunting/platform';
import type { EdgeAccess } from '../access.ts';

/** A metrics message before the edge stamps when it arrived. */
export type UnstampedMetrics = MetricsMessage extends infer Message
  ? Message extends MetricsMessage
    ? Omit<Message, 'receivedAt'>
    : never
  : never;

function subjectKind(kind: MetricsMessage['kind']): 'client' | 'register' | 'frontend' {
  if (kind.startsWith('frontend-')) return 'frontend';
  return kind === 'client-register' ? 'register' : 'client';
}

/** Who sent a metrics message: the token's environment, name and projects (what its counts may be kept for). */
export const metricsEnvelope = (access: EdgeAccess) => ({
  environment: access.environment,
  tokenName: access.tokenName,
  projects: access.projects,
});

/** Takes an SDK's metrics or registration; an accepted one is kept (a refusal is a 503 the SDK retries). */
export type SendMetrics = (message: UnstampedMetrics) => Promise<void>;

/**
 * SDK metrics and registrations are never written inline: they go to the metrics stream for insights and
 * admin-api to aggregate. The answer waits for JetStream's acknowledgement, so an accepted post is kept.
 */
export const publishMetrics =
  (messaging: Messaging): SendMetrics =>
  async (message) => {
    const full = { ...message, receivedAt: new Date().toISOString() };
    try {
      await messaging.js.publish(messaging.names.metricsSubject(subjectKind(full.kind)), JSON.stringify(full), {
        timeout: 2000,
      });
    } catch {
      throw new DomainError(
        503,
        'ServiceUnavailableError',
        'Metrics cannot be accepted right now; send them again later.',
        { headers: { 'retry-after': '5' } },
      );
    }
  };
