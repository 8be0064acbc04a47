import type { ClientFeature } from '@bunting/contracts';
import type { Evaluation } from '@bunting/evaluation';
import { ofrepResult, type OfrepResult } from './ofrep-evaluation.ts';

type OfrepError = Extract<OfrepResult, { errorCode: string }>;

/** What the table needs of a flag (a FrontendFeature). */
export type OfrepTableFeature = {
  compiled: { source: ClientFeature; answers: readonly Evaluation[] };
};

/** Off answers' codes; an answer that is on has the code ON + its slot (see Evaluation). */
const DISABLED = 0;
const DEFAULT = 1;
const NO_TARGETING_KEY = 2;
const ON = 3;
const OFF: Evaluation = { enabled: false, variant: undefined, slot: -1 };

/**
 * The OFREP answers of a list of flags, each encoded once, in one flat array by flag and answer code, as ToggleTable
 * holds /api/frontend's toggles: a bulk answer then reads numbers and one array instead of calling into each flag
 * (with 10,000 flags the calls were a third of the edge's time on OFREP). A flag's entries are its three off answers
 * (flag off; no strategy matched; a rollout on the userId without a targeting key), then one per answer it can give.
 */
export class OfrepTable {
  readonly parts: (Buffer | undefined)[];
  /** Each entry's length in bytes; 0 until it is encoded. */
  readonly lengths: Int32Array;
  /** Each flag's first entry. */
  private readonly first: Int32Array;
  /** Each flag's off code with a targeting key and without one. */
  private readonly offWithKey: Uint8Array;
  private readonly offWithoutKey: Uint8Array;
  private readonly features: readonly OfrepTableFeature[];
  /** The bytes of the last gathering's entries, one more each (for the commas). */
  gatheredBytes = 0;
  /** Each entry as the answer of the one-flag route (with `cacheable`), or its error, made on first use. */
  private singles: (Buffer | OfrepError | undefined)[] | undefined;
  /** Each flag's index by its key, made on the one-flag route's first use. */
  private indexes: Map<string, number> | undefined;

  constructor(features: readonly OfrepTableFeature[]) {
    this.features = features;
    this.first = new Int32Array(features.length);
    this.offWithKey = new Uint8Array(features.length);
    this.offWithoutKey = new Uint8Array(features.length);
    let entries = 0;
    for (let index = 0; index < features.length; index += 1) {
      const feature = features[index]!;
      this.first[index] = entries;
      entries += ON + feature.compiled.answers.length;
      const enabled = feature.compiled.source.enabled;
      this.offWithKey[index] = enabled ? DEFAULT : DISABLED;
      this.offWithoutKey[index] = enabled ? NO_TARGETING_KEY : DISABLED;
    }
    this.parts = new Array<Buffer | undefined>(entries).fill(undefined);
    this.lengths = new Int32Array(entries);
  }

  /** The index of the flag with this key, or -1. */
  indexOf(key: string): number {
    let indexes = this.indexes;
    if (indexes === undefined) {
      indexes = new Map(this.features.map((feature, index) => [feature.compiled.source.name, index]));
      this.indexes = indexes;
    }
    return indexes.get(key) ?? -1;
  }

  /**
   * One flag's answer for its slot (see Evaluation) as the one-flag route sends it, encoded once per answer the flag
   * can give; or, when the answer is an error (no targeting key, a payload that does not parse), that error.
   */
  single(index: number, slot: number, targetingKey: boolean): Buffer | OfrepError {
    const code = slot >= 0 ? ON + slot : (targetingKey ? this.offWithKey : this.offWithoutKey)[index]!;
    const entry = this.first[index]! + code;
    // Made on the one-flag route's first use: a process serving only bulk answers keeps no second array.
    const singles = (this.singles ??= new Array<Buffer | OfrepError | undefined>(this.parts.length).fill(undefined));
    let single = singles[entry];
    if (single === undefined) {
      const result = this.resultOf(index, code);
      single = 'errorCode' in result ? result : Buffer.from(JSON.stringify({ ...result, cacheable: false }));
      singles[entry] = single;
    }
    return single;
  }

  /**
   * Every flag's entry for its slot in `slots`, in order, written to `picked` (equal entries, equal answers: the
   * ETag is taken over them); their bytes plus one each in `gatheredBytes`.
   */
  gather(slots: Int32Array, size: number, targetingKey: boolean, picked: Int32Array): void {
    const first = this.first;
    const lengths = this.lengths;
    const off = targetingKey ? this.offWithKey : this.offWithoutKey;
    let bytes = 0;
    for (let index = 0; index < size; index += 1) {
      const slot = slots[index]!;
      const code = slot >= 0 ? ON + slot : off[index]!;
      const entry = first[index]! + code;
      if (lengths[entry] === 0) this.encode(index, code, entry);
      picked[index] = entry;
      bytes += lengths[entry]! + 1;
    }
    this.gatheredBytes = bytes;
  }

  private encode(index: number, code: number, entry: number): void {
    const part = Buffer.from(JSON.stringify(this.resultOf(index, code)));
    this.parts[entry] = part;
    this.lengths[entry] = part.length;
  }

  private resultOf(index: number, code: number): OfrepResult {
    const compiled = this.features[index]!.compiled;
    const result = code >= ON ? compiled.answers[code - ON]! : OFF;
    // The off codes say whether a targeting key was given; the answers that are on do not depend on it.
    return ofrepResult(compiled.source, result, code !== NO_TARGETING_KEY);
  }
}
