export * from '@bunting/testing';
export * from './stack.ts';
export * from './processes.ts';
export * from './smtp-peer.ts';
export * from './saml-peer.ts';
export * from './delay-proxy.ts';
export * from './unleash-peer.ts';
export * from './counting-proxy.ts';
