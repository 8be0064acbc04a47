/** What the table needs of a flag (a FrontendFeature). */
export type TableFeature = {
  compiled: { answers: readonly unknown[] };
  readonly offToggle: Buffer;
  toggleOfSlot: (slot: number) => Buffer;
};

/**
 * The encoded toggles of a list of features, by flag and slot, in one flat array with their lengths in a typed
 * array: gathering an answer then reads numbers and one array instead of calling into each flag (with 200 flags the
 * gathering loop was a tenth of the edge's CPU). A flag's entries are its off toggle (slot -1), then one per answer
 * it can give (slot 0 on without a variant, 1.. its variants); each is encoded on first use.
 */
export class ToggleTable {
  readonly parts: (Buffer | undefined)[];
  /** Each entry's length in bytes; 0 until it is encoded. */
  readonly lengths: Int32Array;
  /** Each flag's entry for slot 0. */
  private readonly zero: Int32Array;
  private readonly features: readonly TableFeature[];

  constructor(features: readonly TableFeature[]) {
    this.features = features;
    this.zero = new Int32Array(features.length);
    let entries = 0;
    for (let index = 0; index < features.length; index += 1) {
      this.zero[index] = entries + 1;
      entries += 1 + features[index]!.compiled.answers.length;
    }
    this.parts = new Array<Buffer | undefined>(entries).fill(undefined);
    this.lengths = new Int32Array(entries);
  }

  /** The entry of the flag at `index` answering `slot` (-1 for off), its toggle encoded. */
  entry(index: number, slot: number): number {
    const entry = this.zero[index]! + slot;
    if (this.lengths[entry] === 0) {
      const feature = this.features[index]!;
      const part = slot < 0 ? feature.offToggle : feature.toggleOfSlot(slot);
      this.parts[entry] = part;
      this.lengths[entry] = part.length;
    }
    return entry;
  }
}
