import { expect } from 'vitest';
import { hardenPrototypes } from '@bunting/platform/prototype-safety';

// Every test worker runs with the prototypes as a Bunting process has them, so what works here works there. The
// browser tests are the exception: Playwright's client bundles a colour library that assigns `__proto__` whenever it
// formats a failed call, so hardening there turns a readable failure into an unrelated TypeError.
const testPath = expect.getState().testPath ?? '';
if (!/[/\\]tests[/\\]browser[/\\]/.test(testPath)) hardenPrototypes();
