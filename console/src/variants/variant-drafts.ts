import type { VariantPayload } from '@bunting/contracts';

/** A variant as the editor holds it: the fixed weight as a percentage the user types, overrides where they apply. */
export type VariantDraft = {
  name: string;
  weightType: 'variable' | 'fix';
  percent: number; // of a fixed variant, 0-100 with one decimal; weights are in tenths of a percent
  stickiness: string;
  payloadType: '' | VariantPayload['type'];
  payload: string;
  overrides: { contextName: string; values: string[] }[];
};

type StoredVariant = {
  name: string;
  weight: number;
  weightType?: 'variable' | 'fix' | undefined;
  stickiness?: string | undefined;
  payload?: VariantPayload | undefined;
  overrides?: { contextName: string; values: string[] }[] | undefined;
};

export function toDraft(variant: StoredVariant): VariantDraft {
  return {
    name: variant.name,
    weightType: variant.weightType ?? 'variable',
    percent: variant.weight / 10,
    stickiness: variant.stickiness ?? 'default',
    payloadType: variant.payload?.type ?? '',
    payload: variant.payload?.value ?? '',
    overrides: variant.overrides ?? [],
  };
}

export const newDraft = (index: number, stickiness = 'default'): VariantDraft => ({
  name: `variant-${index + 1}`,
  weightType: 'variable',
  percent: 0,
  stickiness,
  payloadType: '',
  payload: '',
  overrides: [],
});

/** Why a payload does not fit its type, or undefined. */
export function payloadProblem(draft: Pick<VariantDraft, 'payloadType' | 'payload'>): string | undefined {
  if (!draft.payloadType) return undefined;
  if (draft.payload.trim() === '') return 'Enter the payload, or choose no payload';
  if (draft.payloadType === 'json') {
    try {
      JSON.parse(draft.payload);
    } catch (error) {
      return `Not valid JSON: ${(error as Error).message}`;
    }
  }
  if (draft.payloadType === 'number' && Number.isNaN(Number(draft.payload))) return 'Not a number';
  return undefined;
}

/**
 * What each variant will weigh, in percent, as the server will store it: fixed ones as typed, the rest shared
 * evenly by the variable ones. Also why the set cannot be saved, if it cannot.
 */
export function weightPreview(drafts: readonly VariantDraft[]): { percents: number[]; problem?: string } {
  const fixed = drafts
    .filter((draft) => draft.weightType === 'fix')
    .reduce((sum, draft) => sum + Math.round(draft.percent * 10), 0);
  const variable = drafts.filter((draft) => draft.weightType === 'variable').length;
  const share = variable > 0 ? Math.max(0, 1000 - fixed) / variable / 10 : 0;
  const percents = drafts.map((draft) => (draft.weightType === 'fix' ? draft.percent : Math.round(share * 10) / 10));
  if (drafts.length === 0) return { percents };
  if (fixed > 1000) return { percents, problem: 'The fixed weights add up to more than 100 %' };
  if (variable === 0)
    return { percents, problem: 'At least one variant must be variable, to take what the fixed ones leave' };
  const names = drafts.map((draft) => draft.name.trim());
  if (names.some((name) => name === '')) return { percents, problem: 'Every variant needs a name' };
  if (new Set(names).size !== names.length) return { percents, problem: 'Variant names must be different' };
  return { percents };
}

/** The variants as the API wants them. */
export function toWire(drafts: readonly VariantDraft[], withOverrides: boolean) {
  return drafts.map((draft) => ({
    name: draft.name.trim(),
    weight: draft.weightType === 'fix' ? Math.round(draft.percent * 10) : 0,
    weightType: draft.weightType,
    stickiness: draft.stickiness || 'default',
    ...(draft.payloadType ? { payload: { type: draft.payloadType, value: draft.payload } } : {}),
    ...(withOverrides && draft.overrides.length > 0
      ? { overrides: draft.overrides.filter((override) => override.contextName && override.values.length > 0) }
      : {}),
  }));
}

/** Whether a set of drafts may be sent as they are. */
export const variantsReady = (drafts: readonly VariantDraft[]) =>
  !weightPreview(drafts).problem && drafts.every((draft) => !payloadProblem(draft));
