import type { Logger } from './logger.ts';

/** `first` settles when the first run has ended (however it ended). */
export type Repeating = { first: Promise<void>; stop: () => Promise<void> };

/**
 * Runs `work` now and then again `intervalMs` after each run ends (never two at once), until stopped; a run that
 * fails is logged as `what` and the next one comes as usual. Stopping waits for the run in hand. The timer does not
 * keep the process alive.
 */
export function repeatEvery(
  work: () => Promise<unknown>,
  intervalMs: number,
  options: { log: Logger; what: string },
): Repeating {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let inFlight: Promise<void> | undefined;
  const run = () => {
    inFlight = work()
      .then(
        () => undefined,
        (error: unknown) => options.log.warn({ err: error }, `${options.what} failed; trying again later`),
      )
      .finally(() => {
        if (!stopped) timer = setTimeout(run, intervalMs).unref();
      });
  };
  run();
  const first = inFlight!;
  return {
    first,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    },
  };
}
