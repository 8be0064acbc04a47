import { startTestStack } from '@bunting/testing';
import { measureEventLogLag } from './event-log-lag.ts';

/** `npm run bench`: every benchmark against the real stack on this machine, bounded in time. */
const stack = await startTestStack();
try {
  console.log('event-log lag (admin change -> listed in the event log):');
  console.table(await measureEventLogLag(stack));
} finally {
  await stack.dispose();
}
