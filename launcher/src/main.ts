import { enableCompileCache } from 'node:module';

// Node keeps what it compiled on disk (NODE_COMPILE_CACHE, else the system's temporary directory): a process that
// started before on this machine or image starts about 300 ms sooner. If the directory cannot be written, nothing is kept.
enableCompileCache();
await import('./launch.ts');
