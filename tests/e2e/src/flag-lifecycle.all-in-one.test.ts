import { afterAll, beforeAll, it } from 'vitest';
import { startTestStack, type TestStack } from '@bunting/test-stack';
import { runFlagLifecycle } from './flag-lifecycle.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.dispose());

it('takes a flag through its whole life on the all-in-one stack', async () => {
  await runFlagLifecycle(stack.url, stack.adminToken);
});
