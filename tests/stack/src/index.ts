export * from '@bunting/testing';
export * from './stack.ts';
export * from './processes.ts';
