/**
 * Keeps requests away from the shared prototypes. Two layers: every key a request can name is checked where it
 * enters (`prototypeKeyPath`, used by the body parsers and by anything that walks a path a client gives), and each
 * process makes the prototypes themselves unchangeable before it takes a request (`hardenPrototypes`), so a path
 * a check missed fails instead of changing every object of the process.
 */

/** Keys through which an object reaches a prototype: `__proto__` directly, `constructor.prototype` in two steps. */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Whether a name, used as a key or as one step of a path, could reach a prototype. */
export const isPrototypeKey = (name: string): boolean => PROTOTYPE_KEYS.has(name);

/**
 * Whether one step of a path a client gives (a SCIM attribute path, a key walked into an object) names something
 * every object inherits: `__proto__`, `constructor`, `toString`... or `prototype`. Following such a step reaches an
 * object the whole process shares.
 */
export const stepReachesShared = (name: string): boolean => name === 'prototype' || name in Object.prototype;

/**
 * The path of the first key of a parsed JSON value that reaches a prototype when merged or walked: `__proto__`
 * anywhere, and `constructor` holding an object with a `prototype` (as Fastify's own parser refuses them). Under
 * other names, `constructor` and `prototype` included, keys are data: a context property called "constructor".
 * Null when there is none.
 */
export function prototypeKeyPath(value: unknown, path = ''): string | null {
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = prototypeKeyPath(value[index], `${path}[${index}]`);
      if (found !== null) return found;
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    const child = (value as Record<string, unknown>)[key];
    const childPath = path === '' ? key : `${path}.${key}`;
    if (key === '__proto__') return childPath;
    if (key === 'constructor' && child !== null && typeof child === 'object' && Object.hasOwn(child, 'prototype'))
      return childPath;
    const found = prototypeKeyPath(child, childPath);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Whether JSON text may hold such a key and must be walked: the words themselves, or a \u escape, which can
 * spell them. Most bodies (every SDK's) have none, so they are not walked.
 */
export const mayHoldPrototypeKey = (text: string): boolean =>
  text.includes('__proto__') || text.includes('prototype') || text.includes('\\u');

// What a walk from parsed JSON can reach: its values' constructors' prototypes, and Function's through `constructor`.
const FROZEN = [Object, Array, Function, String, Number, Boolean] as const;
// Properties that libraries give their own objects by assignment (`Child.prototype.constructor = Child`,
// `error.toString = ...`); every property of Object.prototype is one.
const ASSIGNED_OVER = ['constructor', 'toString', 'toLocaleString', 'valueOf'];
// Left as frozen data properties, for V8's sake. It keeps some fast paths only while what guards them is the built-in
// value, and an accessor is a change: Array.prototype.constructor guards map, filter, slice and concat (an accessor
// there made them about 20 times slower, so every request's code paid for it). And an accessor defined on the
// prototype of String, Number or Boolean (each a wrapper object) turns it into a dictionary, whose methods V8 then
// finds by lookup on every call (charCodeAt, indexOf and startsWith 3 times slower); frozen as they are, they stay
// fast. Assigning these over on an object that inherits them directly fails: arrays' constructors and wrapper
// objects' methods, which no code we run assigns.
const KEPT_AS_DATA: ReadonlyMap<object, readonly string[]> = new Map<object, readonly string[]>([
  [Array.prototype, ['constructor']],
  [String.prototype, ASSIGNED_OVER],
  [Number.prototype, ASSIGNED_OVER],
  [Boolean.prototype, ASSIGNED_OVER],
]);
let hardened = false;

/**
 * Turns a data property of a prototype into an accessor that reads the same, so that once the prototype is frozen
 * an object inheriting it can still get a property of that name by assignment (JavaScript refuses assigning over an
 * inherited read-only property: the "override mistake"). Assigning on the prototype itself still fails.
 */
function allowOverride(prototype: object, name: string): void {
  const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
  if (!descriptor || !('value' in descriptor) || !descriptor.configurable) return;
  const value: unknown = descriptor.value;
  Object.defineProperty(prototype, name, {
    get: () => value,
    set(this: object, next: unknown) {
      if (this === prototype) throw new TypeError(`${name} of a built-in prototype cannot be changed in Bunting.`);
      Object.defineProperty(this, name, { value: next, writable: true, enumerable: true, configurable: true });
    },
    enumerable: descriptor.enumerable ?? false,
    configurable: false,
  });
}

/**
 * Makes the built-in prototypes unchangeable and `__proto__` unusable (as Node's --disable-proto=throw does), for
 * the whole process. Call before any request is taken; objects made later are unaffected, only what they inherit.
 */
export function hardenPrototypes(): void {
  if (hardened) return;
  hardened = true;
  const descriptor = Object.getOwnPropertyDescriptor(Object.prototype, '__proto__');
  // Node started with --disable-proto=delete has none; with =throw it is already an accessor that throws.
  if (descriptor?.configurable) {
    const refuse = (): never => {
      throw new TypeError(
        'Object.prototype.__proto__ is disabled in Bunting: use Object.getPrototypeOf/setPrototypeOf.',
      );
    };
    Object.defineProperty(Object.prototype, '__proto__', {
      get: refuse,
      set: refuse,
      enumerable: false,
      configurable: false,
    });
  }
  for (const name of Object.getOwnPropertyNames(Object.prototype)) allowOverride(Object.prototype, name);
  for (const constructor of FROZEN) {
    const kept = KEPT_AS_DATA.get(constructor.prototype) ?? [];
    for (const name of ASSIGNED_OVER) if (!kept.includes(name)) allowOverride(constructor.prototype, name);
    Object.freeze(constructor.prototype);
  }
}

/** Whether this process's prototypes are hardened. */
export const prototypesHardened = (): boolean => hardened && Object.isFrozen(Object.prototype);
