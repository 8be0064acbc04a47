export { BuntingWebProvider, type BuntingWebProviderOptions } from './bunting-web-provider.ts';
