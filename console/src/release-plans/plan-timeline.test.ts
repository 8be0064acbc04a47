import { describe, expect, it } from 'vitest';
import { planTimeline } from './plan-timeline.ts';

const milestone = (id: string, sortOrder: number, extra = {}) => ({
  id,
  name: id,
  sortOrder,
  startedAt: null,
  transitionCondition: null,
  progressionExecutedAt: null,
  pausedAt: null,
  ...extra,
});

describe('planTimeline', () => {
  it('marks done, active, next and later, and when the next starts on its own', () => {
    const timeline = planTimeline({
      activeMilestoneId: 'b',
      milestones: [
        milestone('c', 2),
        milestone('a', 0, { startedAt: '2026-11-26T10:00:00.000Z' }),
        milestone('b', 1, { startedAt: '2026-11-26T11:00:00.000Z', transitionCondition: { intervalMinutes: 30 } }),
        milestone('d', 3),
      ],
      safeguards: [],
    });
    expect(timeline.entries.map((entry) => [entry.id, entry.status, entry.startsAt])).toEqual([
      ['a', 'done', null],
      ['b', 'active', null],
      ['c', 'next', '2026-11-26T11:30:00.000Z'],
      ['d', 'later', null],
    ]);
    expect(timeline.paused).toBeNull();
  });

  it('holds the next milestone while a safeguard has tripped, and says why', () => {
    const timeline = planTimeline({
      activeMilestoneId: 'a',
      milestones: [
        milestone('a', 0, {
          startedAt: '2026-11-26T10:00:00.000Z',
          transitionCondition: { intervalMinutes: 5 },
          pausedAt: '2026-11-26T10:02:00.000Z',
        }),
        milestone('b', 1),
      ],
      safeguards: [
        {
          triggeredAt: '2026-11-26T10:02:00.000Z',
          triggeredValue: 12,
          impactMetric: { metricName: 'errors', aggregationMode: 'count' },
          triggerCondition: { operator: '>', threshold: 5 },
        },
      ],
    });
    expect(timeline.entries[1]).toMatchObject({ status: 'next', startsAt: null });
    expect(timeline.paused).toEqual({ at: '2026-11-26T10:02:00.000Z', why: 'safeguard: errors (count) > 5, read 12' });
  });

  it('shows a plan that waits for its environment to be switched on', () => {
    expect(
      planTimeline({ activeMilestoneId: null, milestones: [milestone('a', 0), milestone('b', 1)], safeguards: [] })
        .waiting,
    ).toBe(true);
  });
});
