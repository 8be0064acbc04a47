import type { MetricsMessage } from '@bunting/contracts';
import { DomainError, type Messaging } from '@bunting/platform';

/**
 * SDK metrics and registrations are never written inline: they go to the metrics stream for insights and
 * admin-api to aggregate. The answer waits for JetStream's acknowledgement, so an accepted post is kept.
 */
export async function publishMetrics(messaging: Messaging, kind: 'client' | 'register' | 'frontend', message: Omit<MetricsMessage, 'receivedAt'>) {
  const full: MetricsMessage = { ...message, receivedAt: new Date().toISOString() };
  try {
    await messaging.js.publish(messaging.names.metricsSubject(kind), JSON.stringify(full), { timeout: 2000 });
  } catch {
    throw new DomainError(503, 'ServiceUnavailableError', 'Metrics cannot be accepted right now; send them again later.');
  }
}
