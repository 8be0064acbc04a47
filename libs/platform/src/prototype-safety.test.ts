import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { prototypeKeyPath, stepReachesShared } from './prototype-safety.ts';

const moduleUrl = new URL('./prototype-safety.ts', import.meta.url).href;

/** Runs a script in a fresh Node process (this worker's prototypes are hardened already) and returns what it printed. */
function inFreshProcess(script: string, nodeOptions: string[] = []): string {
  const source = `import { hardenPrototypes } from ${JSON.stringify(moduleUrl)};\nhardenPrototypes();\n${script}`;
  return execFileSync(process.execPath, [...nodeOptions, '--input-type=module', '-e', source], {
    encoding: 'utf8',
    cwd: fileURLToPath(new URL('.', import.meta.url)),
  }).trim();
}

describe('hardened prototypes', () => {
  it('refuse every way a request could reach them, in strict and sloppy code', () => {
    const printed = inFreshProcess(`
      const tries = {
        assign: () => { Object.prototype.plan = 'pro'; },
        proto: () => { ({}).__proto__.plan = 'pro'; },
        protoRead: () => ({}).__proto__,
        constructorPrototype: () => { ({}).constructor.prototype.plan = 'pro'; },
        array: () => { [].constructor.prototype.plan = 'pro'; },
        functionPrototype: () => { ({}).constructor.constructor.prototype.plan = 'pro'; },
        string: () => { ''.constructor.prototype.plan = 'pro'; },
        define: () => Object.defineProperty(Object.prototype, 'plan', { value: 'pro' }),
        replaceMethod: () => { Object.prototype.toString = () => 'pro'; },
        sloppy: () => new Function("Object.prototype.plan = 'pro'; return ({}).plan")(),
      };
      const outcome = {};
      for (const [name, attempt] of Object.entries(tries)) {
        try { outcome[name] = String(attempt()); } catch (error) { outcome[name] = error.constructor.name; }
      }
      outcome.fresh = String(({}).plan);
      console.log(JSON.stringify(outcome));
    `);
    expect(JSON.parse(printed)).toEqual({
      assign: 'TypeError',
      proto: 'TypeError',
      protoRead: 'TypeError',
      constructorPrototype: 'TypeError',
      array: 'TypeError',
      functionPrototype: 'TypeError',
      string: 'TypeError',
      define: 'TypeError',
      replaceMethod: 'TypeError',
      sloppy: 'undefined',
      fresh: 'undefined',
    });
  });

  it("still let objects get their own constructor, toString and valueOf by assignment, as libraries' code does", () => {
    const printed = inFreshProcess(`
      'use strict';
      function Parent() {}
      function Child() {}
      Child.prototype = Object.create(Parent.prototype);
      Child.prototype.constructor = Child;
      const object = {};
      object.toString = () => 'mine';
      object.valueOf = () => 7;
      object.hasOwnProperty = () => true;
      const list = [];
      list.toString = () => 'list';
      console.log(JSON.stringify([new Child().constructor === Child, String(object), +object, object.hasOwnProperty('x'), String(list), ({}).toString(), Object.keys(object)]));
    `);
    expect(JSON.parse(printed)).toEqual([
      true,
      'mine',
      7,
      true,
      'list',
      '[object Object]',
      ['toString', 'valueOf', 'hasOwnProperty'],
    ]);
  });
});

describe('prototype keys in parsed JSON', () => {
  it('finds __proto__ anywhere and constructor.prototype, and takes other uses of those names as data', () => {
    expect(prototypeKeyPath(JSON.parse('{"a":{"__proto__":{"x":1}}}'))).toBe('a.__proto__');
    expect(prototypeKeyPath(JSON.parse('[{"b":[{"constructor":{"prototype":{}}}]}]'))).toBe('[0].b[0].constructor');
    expect(prototypeKeyPath(JSON.parse('{"constructor":"x","prototype":{"x":1},"toString":"y"}'))).toBeNull();
    expect(prototypeKeyPath(JSON.parse('{"constructor":{"name":"x"}}'))).toBeNull();
    expect(prototypeKeyPath('text')).toBeNull();
  });

  it('says which path steps reach what every object shares', () => {
    expect(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'].every(stepReachesShared)).toBe(true);
    expect(['name', 'emails', 'plan', 'value'].some(stepReachesShared)).toBe(false);
  });

  it("leave V8's fast paths for arrays and strings in place", () => {
    // V8 drops a fast path for good once what it guards changes (its "protectors"), and finds methods by lookup on a
    // prototype it made a dictionary; nothing but V8's own natives syntax tells. With Array.prototype.constructor an
    // accessor, map, filter and slice ran 20 times slower; with String.prototype a dictionary, its methods 3 times.
    const printed = inFreshProcess(
      `
      const natives = (call) => new Function('return %' + call)();
      const protectors = ['ArraySpeciesProtector', 'StringWrapperToPrimitiveProtector', 'NoElementsProtector',
        'ArrayIteratorProtector', 'StringIteratorProtector', 'PromiseSpeciesProtector', 'RegExpSpeciesProtector'];
      const prototypes = { Object, Array, Function, String, Number, Boolean };
      globalThis.checked = prototypes;
      console.log(JSON.stringify({
        broken: protectors.filter((name) => !natives(name + '()')),
        dictionaries: Object.keys(prototypes).filter((name) => !natives('HasFastProperties(checked.' + name + '.prototype)')),
      }));
    `,
      ['--allow-natives-syntax'],
    );
    expect(JSON.parse(printed)).toEqual({ broken: [], dictionaries: [] });
  });
});
