import type { FeatureStrategy } from '@bunting/contracts';

const shortList = (text: string) => {
  const values = text
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  return values.length <= 4 ? values.join(', ') : `${values.slice(0, 4).join(', ')} and ${values.length - 4} more`;
};

/** One line saying what a strategy does, in the words of its parameters. */
export function strategySummary(strategy: Pick<FeatureStrategy, 'name' | 'parameters'>): string {
  const p = strategy.parameters;
  switch (strategy.name) {
    case 'default':
      return 'On for everyone';
    case 'flexibleRollout':
      return `${p.rollout ?? '100'} % of ${p.stickiness && p.stickiness !== 'default' ? `${p.stickiness}s` : 'users'}${p.groupId ? `, group ${p.groupId}` : ''}`;
    case 'userWithId':
      return `Users ${shortList(p.userIds ?? '')}`;
    case 'remoteAddress':
      return `Addresses ${shortList(p.IPs ?? '')}`;
    case 'applicationHostname':
      return `Hosts ${shortList(p.hostNames ?? '')}`;
    default:
      return (
        Object.entries(p)
          .map(([name, value]) => `${name}: ${value.length > 40 ? `${value.slice(0, 39)}…` : value}`)
          .join('; ') || 'No parameters'
      );
  }
}

/** The order after moving one strategy up or down, as the sort-order API wants it. */
export function movedOrder(
  strategies: readonly Pick<FeatureStrategy, 'id'>[],
  id: string,
  by: -1 | 1,
): { id: string; sortOrder: number }[] {
  const ids = strategies.map((strategy) => strategy.id);
  const from = ids.indexOf(id);
  const to = from + by;
  if (from < 0 || to < 0 || to >= ids.length) return ids.map((each, sortOrder) => ({ id: each, sortOrder }));
  [ids[from], ids[to]] = [ids[to]!, ids[from]!];
  return ids.map((each, sortOrder) => ({ id: each, sortOrder }));
}
