import type { Queryable } from '@bunting/platform';
import { SIGN_IN_METHODS, signInMethodsEnabled } from './sign-in-methods.ts';

/**
 * How one may sign in, as Unleash's 401 says it (its UI, and the console, build the sign-in page from it): the
 * main method's form, hidden when it is off, and a button for each other method that is on.
 */
export async function signInOptions(db: Queryable) {
  const enabled = await signInMethodsEnabled(db);
  const [main, ...others] = SIGN_IN_METHODS;
  return {
    path: main!.offer.path,
    type: main!.type,
    defaultHidden: !enabled[main!.type],
    options: others.filter((method) => enabled[method.type]).map((method) => ({ type: method.type, ...method.offer })),
  };
}
