import { afterAll, vi } from 'vitest';
import { stopAll } from './target.ts';

// Unleash's tests are written for Jest; its `jest` object is vitest's `vi` here.
(globalThis as { jest?: unknown }).jest = vi;

// After the file's own teardown: whatever it started and did not stop (its setup failed half-way) stops here.
afterAll(stopAll);
