export { BuntingProvider, type BuntingProviderOptions } from './bunting-provider.ts';
