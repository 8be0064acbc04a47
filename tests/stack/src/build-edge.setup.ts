import { buildEdge } from './processes.ts';

/** vitest global setup: the tests that run the SDK edge as deployed start it from its build, made once here. */
export default function setup() {
  buildEdge();
}
