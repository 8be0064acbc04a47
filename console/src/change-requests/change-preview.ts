import type { Feature, FeatureStrategy } from '@bunting/contracts';
import { diffEvent, type Change } from '../history/event-diff.ts';

/** What one change in a request would do to a flag in its environment, next to what the flag is now. */
export type ChangePreview = { summary: string; changes: Change[] };

type Payload = Record<string, unknown>;

/** A constraint with its defaults spelt out, so one written without `inverted` reads the same as one stored with `false`. */
function constraintShape(constraint: unknown) {
  const { contextName, operator, values, value, inverted, caseInsensitive } = constraint as Payload;
  return {
    contextName,
    operator,
    ...(value !== undefined && value !== null ? { value } : { values: values ?? [] }),
    inverted: inverted ?? false,
    caseInsensitive: caseInsensitive ?? false,
  };
}

/** The parts of a strategy a reviewer compares, defaults filled in; ids and sort orders say nothing about behaviour. */
function strategyShape(strategy: Partial<FeatureStrategy> | Payload | undefined) {
  if (!strategy) return undefined;
  const { name, title, disabled, parameters, constraints, variants, segments } = strategy as Payload;
  return {
    name,
    title: title ?? null,
    disabled: disabled ?? false,
    parameters: parameters ?? {},
    constraints: ((constraints ?? []) as unknown[]).map(constraintShape),
    variants: variants ?? [],
    segments: segments ?? [],
  };
}

const strategyName = (strategy: Partial<FeatureStrategy> | Payload | undefined) => {
  const { title, name } = (strategy ?? {}) as { title?: string | null; name?: string };
  return title ? `${title} (${name ?? ''})` : (name ?? 'a strategy');
};

/**
 * The difference a change would make, worked out against the flag as it is now (so a reviewer sees what it
 * changes, not only what it sets). `flag` is undefined while the flag loads or once it is gone; then the change
 * is listed as what it sets.
 */
export function previewChange(
  action: string,
  rawPayload: unknown,
  flag: Feature | undefined,
  environment: string,
): ChangePreview {
  const payload = (rawPayload ?? {}) as Payload;
  const here = flag?.environments.find((candidate) => candidate.name === environment);
  const strategies = here?.strategies ?? [];
  const byId = (id: unknown) => strategies.find((strategy) => strategy.id === id);
  switch (action) {
    case 'updateEnabled':
      return {
        summary: payload.enabled ? 'Turn on' : 'Turn off',
        changes: diffEvent(here ? { enabled: here.enabled } : undefined, { enabled: payload.enabled }),
      };
    case 'addStrategy':
      return {
        summary: `Add the strategy ${strategyName(payload)}`,
        changes: diffEvent(undefined, strategyShape(payload)),
      };
    case 'updateStrategy': {
      const current = byId(payload.id);
      return {
        summary: `Change the strategy ${strategyName(payload)}`,
        changes: diffEvent(strategyShape(current), strategyShape(payload)),
      };
    }
    case 'deleteStrategy': {
      const current = byId(payload.id);
      return {
        summary: `Remove the strategy ${strategyName(current)}`,
        changes: diffEvent(strategyShape(current), undefined),
      };
    }
    case 'reorderStrategy': {
      const order = [...((rawPayload as { id: string; sortOrder: number }[]) ?? [])].sort(
        (left, right) => left.sortOrder - right.sortOrder,
      );
      return {
        summary: 'Reorder the strategies',
        changes: diffEvent(
          { order: strategies.map(strategyName) },
          { order: order.map((entry) => strategyName(byId(entry.id))) },
        ),
      };
    }
    case 'patchVariant':
      return {
        summary: 'Set the variants',
        changes: diffEvent({ variants: here?.variants ?? [] }, { variants: payload.variants }),
      };
    case 'addDependency':
      return { summary: `Depend on ${String(payload.feature ?? '')}`, changes: diffEvent(undefined, payload) };
    case 'deleteDependency':
      return {
        summary: 'Remove the dependencies',
        changes: diffEvent({ dependencies: flag?.dependencies ?? [] }, { dependencies: [] }),
      };
    case 'archiveFeature':
      return {
        summary: 'Archive the flag',
        changes: diffEvent({ archived: flag?.archived ?? false }, { archived: true }),
      };
    default:
      return { summary: action, changes: diffEvent(undefined, payload) };
  }
}
