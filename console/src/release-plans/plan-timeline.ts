type Milestone = {
  id: string;
  name: string;
  sortOrder: number;
  startedAt: string | null;
  transitionCondition: { intervalMinutes: number } | null;
  progressionExecutedAt: string | null;
  pausedAt: string | null;
};
type Safeguard = {
  triggeredAt: string | null;
  triggeredValue: number | null;
  impactMetric: { metricName: string; aggregationMode: string };
  triggerCondition: { operator: string; threshold: number };
};

export type MilestoneStatus = 'done' | 'active' | 'next' | 'later';
export type TimelineEntry = {
  id: string;
  name: string;
  status: MilestoneStatus;
  startedAt: string | null;
  startsAt: string | null;
};

/**
 * A plan as a timeline: milestones before the active one are done, the one after it is next (with the time it starts
 * on its own, if a progression will start it and nothing holds it), the rest later. Why the plan holds, if it does.
 */
export function planTimeline(
  plan: { activeMilestoneId: string | null; milestones: readonly Milestone[]; safeguards: readonly Safeguard[] },
  minuteMs = 60_000,
) {
  const milestones = [...plan.milestones].sort((a, b) => a.sortOrder - b.sortOrder);
  const activeIndex = milestones.findIndex((milestone) => milestone.id === plan.activeMilestoneId);
  const active = activeIndex >= 0 ? milestones[activeIndex]! : undefined;
  const tripped = plan.safeguards.find((safeguard) => safeguard.triggeredAt !== null);
  const pausedAt =
    milestones.find((milestone) => milestone.pausedAt !== null)?.pausedAt ?? (tripped ? tripped.triggeredAt : null);
  const runsOn = active?.transitionCondition && active.startedAt && !active.progressionExecutedAt && !pausedAt;
  const entries: TimelineEntry[] = milestones.map((milestone, index) => {
    const status: MilestoneStatus =
      activeIndex < 0
        ? index === 0
          ? 'next'
          : 'later'
        : index < activeIndex
          ? 'done'
          : index === activeIndex
            ? 'active'
            : index === activeIndex + 1
              ? 'next'
              : 'later';
    const startsAt =
      status === 'next' && runsOn
        ? new Date(Date.parse(active.startedAt!) + active.transitionCondition!.intervalMinutes * minuteMs).toISOString()
        : null;
    return { id: milestone.id, name: milestone.name, status, startedAt: milestone.startedAt, startsAt };
  });
  const why = tripped
    ? `safeguard: ${tripped.impactMetric.metricName} (${tripped.impactMetric.aggregationMode}) ${tripped.triggerCondition.operator} ${tripped.triggerCondition.threshold}, read ${tripped.triggeredValue ?? '?'}`
    : null;
  return { entries, waiting: activeIndex < 0, paused: pausedAt ? { at: pausedAt, why } : null };
}
