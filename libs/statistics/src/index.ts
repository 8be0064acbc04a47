export * from './arms.ts';
export * from './effect.ts';
export * from './frequentist.ts';
export * from './bayesian.ts';
export * from './srm.ts';
export * from './multiple-comparisons.ts';
export { normalQuantile, normalCdf, studentQuantile } from './distributions.ts';
export * from './guardrail.ts';
export * from './metric-arms.ts';
