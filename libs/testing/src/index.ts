export * from './isolation.ts';
export * from './http-client.ts';
export * from './nats-server.ts';
export * from './stack.ts';
export * from './processes.ts';
export * from './sessions.ts';
