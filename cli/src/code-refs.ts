import { execFileSync } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

// Finds where code uses flags, in a git checkout, without sending source anywhere: paths, line numbers and (unless
// turned off) a few lines around each reference.

/** Calls of Unleash's Node, browser and React SDKs and of OpenFeature's SDKs (server, web, React) with a flag name. */
const SDK_CALLS =
  /\b(?:isEnabled|getVariant|useFlag|useVariant|useFlagStatus|(?:get|use)(?:Boolean|String|Number|Object)(?:Value|Details)|use(?:Boolean|String|Number|Object)FlagValue|use(?:Boolean|String|Number|Object)FlagDetails|useSuspenseFlag)\s*\(\s*(['"`])([\w.:-]+)\1/g;

const MAX_FILE_BYTES = 1024 * 1024;
const BINARY =
  /\.(png|jpe?g|gif|webp|ico|pdf|zip|gz|tgz|jar|woff2?|ttf|eot|mp[34]|mov|wasm|so|dylib|dll|exe|bin|lock)$/i;

export interface FoundReference {
  readonly flag: string;
  readonly path: string;
  readonly line: number;
  readonly context: string[];
}

export interface ScanOptions {
  readonly dir: string;
  /** Lines either side sent with each reference; 0 sends none. */
  readonly contextLines: number;
  /** Extra patterns, each with one capture group: the flag name. */
  readonly patterns: readonly RegExp[];
}

function git(dir: string, args: readonly string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'ignore'],
    maxBuffer: 256 * 1024 * 1024,
  }).toString();
}

export function checkoutFacts(dir: string) {
  const remote = (() => {
    try {
      return git(dir, ['remote', 'get-url', 'origin']).trim();
    } catch {
      return null;
    }
  })();
  return {
    commit: git(dir, ['rev-parse', 'HEAD']).trim(),
    branch:
      process.env['GITHUB_HEAD_REF'] ||
      process.env['GITHUB_REF_NAME'] ||
      process.env['CI_COMMIT_REF_NAME'] ||
      git(dir, ['rev-parse', '--abbrev-ref', 'HEAD']).trim(),
    repository: remote ? repositoryName(remote) : null,
  };
}

/** git@github.com:acme/shop.git and https://github.com/acme/shop.git are both github.com/acme/shop. */
export function repositoryName(remote: string): string {
  return remote
    .trim()
    .replace(/^[a-z+]+:\/\/(?:[^@/]+@)?/i, '')
    .replace(/^[^@/]+@([^:]+):/, '$1/')
    .replace(/\.git$/, '');
}

/** Every reference to a flag of `known` in the checkout's tracked files; names not known are counted apart. */
export async function scan(options: ScanOptions, known: ReadonlySet<string>) {
  const files = git(options.dir, ['ls-files', '-z'])
    .split('\0')
    .filter((path) => path !== '' && !BINARY.test(path));
  const references: FoundReference[] = [];
  const unknown = new Set<string>();
  for (const path of files) {
    const full = join(options.dir, path);
    const info = await stat(full).catch(() => null);
    if (!info?.isFile() || info.size > MAX_FILE_BYTES) continue;
    const text = await readFile(full, 'utf8');
    if (text.includes('\0')) continue;
    const lines = text.split('\n');
    lines.forEach((content, index) => {
      const names = new Set<string>();
      for (const match of content.matchAll(SDK_CALLS)) names.add(match[2]!);
      for (const pattern of options.patterns)
        for (const match of content.matchAll(
          new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`),
        ))
          if (match[1]) names.add(match[1]);
      for (const flag of names) {
        if (!known.has(flag)) {
          unknown.add(flag);
          continue;
        }
        const from = Math.max(0, index - options.contextLines);
        const to = Math.min(lines.length - 1, index + options.contextLines);
        references.push({
          flag,
          path,
          line: index + 1,
          context: options.contextLines > 0 ? lines.slice(from, to + 1).map((item) => item.slice(0, 500)) : [],
        });
      }
    });
  }
  return { references, unknown: [...unknown].sort() };
}

/**
 * For each flag the branch referenced before and no longer does, the commit that removed its last reference: the
 * newest commit that changed how often its name occurs (git's pickaxe).
 */
export function extinctions(dir: string, gone: readonly string[]) {
  return gone.flatMap((flag) => {
    const found = git(dir, ['log', '-1', `-S${flag}`, '--format=%H%x1f%an%x1f%aI']).trim();
    if (!found) return [];
    const [commit, author, removedAt] = found.split('\x1f');
    return [{ flag, commit: commit!, author: author || null, removedAt: removedAt! }];
  });
}
