export * from './hashing.ts';
export * from './context.ts';
export * from './constraints.ts';
export * from './variants.ts';
export * from './strategies.ts';
export * from './engine.ts';
export * from './delta.ts';
export * from './explain.ts';
