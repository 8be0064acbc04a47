import { enableCompileCache } from 'node:module';
import { hardenPrototypes } from '@bunting/platform/prototype-safety';

// Before anything else runs: no request can reach a shared prototype, whatever a parser or patcher lets through.
hardenPrototypes();
// Node keeps what it compiled on disk (NODE_COMPILE_CACHE, else the system's temporary directory): a process that
// started before on this machine or image starts about 300 ms sooner. If the directory cannot be written, nothing is kept.
enableCompileCache();
await import('./launch.ts');
