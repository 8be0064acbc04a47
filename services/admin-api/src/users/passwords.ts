import argon2 from 'argon2';

/**
 * Argon2id's cost for new password hashes (PASSWORD_HASHING, `m=65536,t=3,p=4`: the names a stored hash gives them).
 * A stored hash names the cost it was made with, so changing it leaves every existing password working.
 */
export type PasswordHashing = { memoryKib: number; passes: number; lanes: number };

/** The argon2 library's own default: 64 MiB, 3 passes, 4 lanes. */
export const DEFAULT_PASSWORD_HASHING: PasswordHashing = { memoryKib: 65_536, passes: 3, lanes: 4 };

/**
 * The least OWASP's password storage guidance accepts for argon2id is 19 MiB with 2 passes, or less memory with
 * more passes: memory times passes of at least 7 MiB x 5.
 */
const LEAST_MEMORY_TIMES_PASSES = 7_168 * 5;

/** Reads PASSWORD_HASHING; refuses a cost below OWASP's least, so no setting makes stored passwords cheap to guess. */
export function readPasswordHashing(raw: string | undefined): PasswordHashing {
  if (raw === undefined || raw === '') return DEFAULT_PASSWORD_HASHING;
  const fields = new Map(
    raw.split(',').map((part) => {
      const [key, value] = part.split('=').map((side) => side.trim());
      return [key, Number(value)] as const;
    }),
  );
  const hashing = { memoryKib: fields.get('m'), passes: fields.get('t'), lanes: fields.get('p') };
  const whole = (value: number | undefined): value is number => Number.isInteger(value) && value! > 0;
  if (fields.size !== 3 || !whole(hashing.memoryKib) || !whole(hashing.passes) || !whole(hashing.lanes))
    throw new Error(`PASSWORD_HASHING must read m=<KiB>,t=<passes>,p=<lanes>, got "${raw}"`);
  if (hashing.memoryKib * hashing.passes < LEAST_MEMORY_TIMES_PASSES || hashing.lanes > 16)
    throw new Error(
      `PASSWORD_HASHING "${raw}" is below OWASP's least for argon2id (m=19456,t=2,p=1, or m x t >= ${LEAST_MEMORY_TIMES_PASSES}) or has more than 16 lanes`,
    );
  return hashing as PasswordHashing;
}

/** Passwords are hashed with argon2id; only the hash is stored. */
export function hashPassword(password: string, hashing: PasswordHashing): Promise<string> {
  return argon2.hash(password, {
    type: argon2.argon2id,
    memoryCost: hashing.memoryKib,
    timeCost: hashing.passes,
    parallelism: hashing.lanes,
  });
}

export async function passwordMatches(hash: string | null, password: string): Promise<boolean> {
  if (!hash) return false;
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/**
 * Spends the same time as a real check, so a missing user and a wrong password cannot be told apart: the decoy is
 * hashed at the cost new passwords get.
 */
const decoys = new Map<string, Promise<string>>();
export async function spendPasswordCheck(password: string, hashing: PasswordHashing): Promise<void> {
  const key = `${hashing.memoryKib},${hashing.passes},${hashing.lanes}`;
  let decoy = decoys.get(key);
  if (!decoy) decoys.set(key, (decoy = hashPassword('decoy-password-for-timing', hashing)));
  await passwordMatches(await decoy, password);
}
