import { ValidationError } from '@bunting/platform';

export type DayRange = { from: string; to: string };

const DAY_MS = 86_400_000;
/** Without a range, the dashboard shows the last twelve weeks. */
const DEFAULT_DAYS = 84;
const MAX_DAYS = 3 * 366;

/** The days asked for (both included), checked: `from` not after `to`, and not more than three years. */
export function dayRange(query: { from?: string | undefined; to?: string | undefined }, today: Date): DayRange {
  const to = query.to ?? today.toISOString().slice(0, 10);
  const from = query.from ?? new Date(Date.parse(to) - (DEFAULT_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  const span = (Date.parse(to) - Date.parse(from)) / DAY_MS;
  if (span < 0) throw ValidationError.field('from', 'must not be after to');
  if (span > MAX_DAYS) throw ValidationError.field('from', `must be at most ${MAX_DAYS} days before to`);
  return { from, to };
}
