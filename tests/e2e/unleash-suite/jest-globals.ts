import { vi } from 'vitest';

// Unleash's tests are written for Jest; its `jest` object is vitest's `vi` here.
(globalThis as { jest?: unknown }).jest = vi;
