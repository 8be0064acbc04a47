import type { Logger } from './logger.ts';

/** `first` settles when the first run has ended (however it ended). */
export type Repeating = { first: Promise<void>; stop: () => Promise<void> };

/**
 * Runs `work` now and then again `intervalMs` after each run ends (never two at once), until stopped; a run that
 * fails is logged as `what` and the next one comes as usual. Stopping aborts the signal `work` is given (a batch
 * checks it between items) and waits for the run in hand. The timer does not keep the process alive.
 */
export function repeatEvery(
  work: (signal: AbortSignal) => Promise<unknown>,
  intervalMs: number,
  options: { log: Logger; what: string },
): Repeating {
  let timer: NodeJS.Timeout | undefined;
  const stopping = new AbortController();
  let inFlight: Promise<void> | undefined;
  const run = () => {
    inFlight = Promise.resolve()
      .then(() => work(stopping.signal))
      .then(
        () => undefined,
        (error: unknown) => options.log.warn({ err: error }, `${options.what} failed; trying again later`),
      )
      .finally(() => {
        if (!stopping.signal.aborted) timer = setTimeout(run, intervalMs).unref();
      });
  };
  run();
  const first = inFlight!;
  return {
    first,
    stop: async () => {
      stopping.abort();
      clearTimeout(timer);
      await inFlight;
    },
  };
}
