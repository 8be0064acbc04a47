import { feedSubjectToken, type FeedScope } from './configuration-feed.ts';

/**
 * NATS names, derived from one namespace so that test files and deployments never share a stream.
 * Streams hold upper-case names; subjects hold the namespace as their first token.
 */
export function natsNames(namespace: string) {
  const streamPrefix = namespace.toUpperCase().replace(/[^A-Z0-9_-]/g, '_');
  return {
    eventsStream: `${streamPrefix}_EVENTS`,
    eventsSubjects: `${namespace}.events.>`,
    eventSubject: (type: string) => `${namespace}.events.${type}`,
    metricsStream: `${streamPrefix}_METRICS`,
    metricsSubjects: `${namespace}.metrics.>`,
    metricsSubject: (kind: 'client' | 'register' | 'frontend') => `${namespace}.metrics.${kind}`,
    signalsStream: `${streamPrefix}_SIGNALS`,
    signalsSubjects: `${namespace}.signals.>`,
    signalSubject: (endpoint: string) => `${namespace}.signals.${endpoint}`,
    /** The configuration feed (configuration-feed.ts): each environment's and the SDK tokens', version 1. */
    feedStream: `${streamPrefix}_FEED`,
    feedSubjects: `${namespace}.feed1.>`,
    feed: (scope: FeedScope) => {
      const root =
        scope === 'tokens'
          ? `${namespace}.feed1.tokens`
          : `${namespace}.feed1.env.${feedSubjectToken(scope.environment)}`;
      return {
        delta: `${root}.delta`,
        hydration: `${root}.hydration`,
        part: (revision: number, part: number) => `${root}.part.${revision}.${part}`,
      };
    },
    /** Where a service answers one of its published views (see published-views.ts); admin-api's unless named. */
    view: (name: string, service = 'admin') => `${namespace}.rpc.${service}.${name}`,
    consumer: (name: string) => `${streamPrefix}_${name.toUpperCase().replace(/[^A-Z0-9_-]/g, '_')}`,
  };
}
export type NatsNames = ReturnType<typeof natsNames>;
