/** One difference between an event's preData and data, at a readable path such as `strategies[flexibleRollout].parameters.rollout`. */
export type Change =
  | { kind: 'added'; path: string; after: unknown }
  | { kind: 'removed'; path: string; before: unknown }
  | { kind: 'changed'; path: string; before: unknown; after: unknown }
  | { kind: 'items'; path: string; added: unknown[]; removed: unknown[] };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalar = (value: unknown) => value === null || (typeof value !== 'object' && typeof value !== 'function');
const same = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right);

/** Objects in a list are matched by id, then name, so a reordered or edited strategy reads as itself. */
function keyOf(item: unknown): string | undefined {
  if (!isObject(item)) return undefined;
  if (typeof item.id === 'string' || typeof item.id === 'number') return String(item.id);
  if (typeof item.name === 'string') return item.name;
  return undefined;
}

function label(item: Json, key: string): string {
  return typeof item.name === 'string' && item.name !== key ? `${item.name} ${key}` : key;
}

function diffLists(path: string, before: unknown[], after: unknown[], out: Change[]) {
  if (before.every(isScalar) && after.every(isScalar)) {
    // A list of values (user ids, constraint values): what was added and removed, not shifted positions.
    const beforeSet = new Set(before.map((value) => JSON.stringify(value)));
    const afterSet = new Set(after.map((value) => JSON.stringify(value)));
    const added = after.filter((value) => !beforeSet.has(JSON.stringify(value)));
    const removed = before.filter((value) => !afterSet.has(JSON.stringify(value)));
    if (added.length > 0 || removed.length > 0) out.push({ kind: 'items', path, added, removed });
    else if (!same(before, after)) out.push({ kind: 'changed', path, before, after });
    return;
  }
  const keyed = [...before, ...after].every((item) => keyOf(item) !== undefined);
  if (!keyed) {
    const length = Math.max(before.length, after.length);
    for (let index = 0; index < length; index += 1) diffValues(`${path}[${index}]`, before[index], after[index], out);
    return;
  }
  const previous = new Map(before.map((item) => [keyOf(item)!, item as Json]));
  const next = new Map(after.map((item) => [keyOf(item)!, item as Json]));
  for (const [key, item] of previous) {
    const name = `${path}[${label(item, key)}]`;
    if (!next.has(key)) out.push({ kind: 'removed', path: name, before: item });
    else diffValues(name, item, next.get(key), out);
  }
  for (const [key, item] of next) {
    if (!previous.has(key)) out.push({ kind: 'added', path: `${path}[${label(item, key)}]`, after: item });
  }
}

/** What a creation set (or a deletion removed), field by field: objects opened up, lists of values as items. */
function listWhole(path: string, value: unknown, side: 'added' | 'removed', out: Change[]) {
  if (isObject(value) && Object.keys(value).length > 0) {
    for (const [key, inner] of Object.entries(value)) listWhole(`${path}.${key}`, inner, side, out);
  } else if (Array.isArray(value) && value.length > 0 && value.every(isScalar)) {
    out.push({ kind: 'items', path, added: side === 'added' ? value : [], removed: side === 'removed' ? value : [] });
  } else if (Array.isArray(value) && value.length > 0 && value.every(isObject)) {
    value.forEach((item, index) => {
      const key = keyOf(item);
      listWhole(`${path}[${key === undefined ? index : label(item, key)}]`, item, side, out);
    });
  } else if (side === 'added') {
    out.push({ kind: 'added', path, after: value });
  } else {
    out.push({ kind: 'removed', path, before: value });
  }
}

function diffValues(path: string, before: unknown, after: unknown, out: Change[]) {
  if (same(before, after)) return;
  if (before === undefined) {
    listWhole(path, after, 'added', out);
    return;
  }
  if (after === undefined) {
    listWhole(path, before, 'removed', out);
    return;
  }
  if (isObject(before) && isObject(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      diffValues(path ? `${path}.${key}` : key, before[key], after[key], out);
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    diffLists(path, before, after, out);
    return;
  }
  out.push({ kind: 'changed', path, before, after });
}

/**
 * What an event changed, as a list of readable differences from preData to data. An event with only data (a
 * creation) lists what it set; one with only preData (a deletion) lists what it removed.
 */
export function diffEvent(preData: unknown, data: unknown): Change[] {
  const out: Change[] = [];
  const before = preData ?? undefined;
  const after = data ?? undefined;
  if (before === undefined && isObject(after)) {
    for (const [key, value] of Object.entries(after)) listWhole(key, value, 'added', out);
  } else if (after === undefined && isObject(before)) {
    for (const [key, value] of Object.entries(before)) listWhole(key, value, 'removed', out);
  } else {
    diffValues('', before, after, out);
  }
  return out;
}

/** A value shown inline: strings as they are, everything else as compact JSON, long ones shortened. */
export function formatValue(value: unknown, max = 160): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
