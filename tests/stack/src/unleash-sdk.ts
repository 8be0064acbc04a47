/** What `stopUnleashSdk` needs of an Unleash Node SDK (`unleash-client`), without depending on the package. */
export interface UnleashSdk {
  destroy(): void;
}

/**
 * Destroys an Unleash Node SDK so that a poll in flight cannot fail the test run afterwards.
 *
 * unleash-client 6.12: destroy() stops the repository and removes its listeners, but a poll already in flight still
 * ends; when the server is gone by then, its failure is emitted as `error` on the repository, which then has no
 * listener, so the emit throws inside an async function: an unhandled rejection that fails the whole vitest run.
 * A listener left on the repository takes that failure.
 */
export function stopUnleashSdk(sdk: UnleashSdk | undefined): void {
  if (sdk === undefined) return;
  sdk.destroy();
  const repository = (sdk as { repository?: { on?: (event: string, listener: () => void) => unknown } }).repository;
  repository?.on?.('error', () => undefined);
}
