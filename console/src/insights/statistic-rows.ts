/** Nested figures as one row each (`activeUsers.last7`), lists by their entries' range. */
export function statisticRows(statistics: Record<string, unknown>, prefix = ''): [string, string][] {
  return Object.entries(statistics).flatMap(([key, value]): [string, string][] => {
    const name = prefix ? `${prefix}.${key}` : key;
    if (Array.isArray(value))
      return value.map((entry: { range?: string; count?: unknown }, index) => [
        `${name}.${entry.range ?? index}`,
        String(entry.count ?? JSON.stringify(entry)),
      ]);
    if (value !== null && typeof value === 'object') return statisticRows(value as Record<string, unknown>, name);
    return [[name, value === null ? '' : String(value)]];
  });
}
