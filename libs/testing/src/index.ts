export * from './isolation.ts';
export * from './http-client.ts';
export * from './nats-server.ts';
export * from './sessions.ts';
export * from './event-log-marker.ts';
export * from './private-servers.ts';
export * from './schema-sample.ts';
