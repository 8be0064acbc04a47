/**
 * What a standalone edge does with secrets it does not know, which anyone may send (/edge/validate needs no
 * credential, and SDK routes take any token): each is asked about upstream at most once an interval, whoever sends
 * it and however many come in one request; those arriving together are asked in one request; and at most `perSecond`
 * of them are asked a second in all, the rest refused without asking. Pure: the caller does the asking.
 */
export type UnknownTokenPolicy = {
  /** Whether the secret may be asked about now: not refused recently and within this second's budget. */
  mayAsk: (secret: string, now: number) => 'ask' | 'known-unknown' | 'over-budget';
  /** The upstream said it does not know the secret: not asked again until `now + intervalMs`. */
  unknown: (secret: string, now: number) => void;
};

/** Secrets remembered as unknown, at most: the oldest go first, so a flood cannot clear the memory of the rest. */
const REMEMBERED = 100_000;

export function unknownTokenPolicy(options: { intervalMs: number; perSecond: number }): UnknownTokenPolicy {
  const until = new Map<string, number>();
  let second = 0;
  let asked = 0;
  return {
    mayAsk(secret, now) {
      const refusedUntil = until.get(secret);
      if (refusedUntil !== undefined) {
        if (refusedUntil > now) return 'known-unknown';
        until.delete(secret);
      }
      const current = Math.floor(now / 1000);
      if (current !== second) {
        second = current;
        asked = 0;
      }
      if (asked >= options.perSecond) return 'over-budget';
      asked += 1;
      return 'ask';
    },
    unknown(secret, now) {
      until.delete(secret);
      until.set(secret, now + options.intervalMs);
      if (until.size > REMEMBERED) until.delete(until.keys().next().value!);
    },
  };
}
