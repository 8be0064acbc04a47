import { describe, expect, it } from 'vitest';
import { tunedEdgeProcess } from './edge-process.ts';

const argv = ['/usr/bin/node', '/app/launcher/dist/edge.mjs', '--target=edge'];

describe('the SDK edge process', () => {
  it('starts again with 8 MiB semi-spaces, keeping the Node options and arguments it had', () => {
    expect(tunedEdgeProcess(['--enable-source-maps'], argv, {})?.args).toEqual([
      '/usr/bin/node',
      '--max-semi-space-size=8',
      '--enable-source-maps',
      '/app/launcher/dist/edge.mjs',
      '--target=edge',
    ]);
    expect(tunedEdgeProcess([], argv, { EDGE_SEMI_SPACE_MIB: '16' })?.args[1]).toBe('--max-semi-space-size=16');
  });

  it('bounds the allocator, keeping what the operator set', () => {
    expect(tunedEdgeProcess([], argv, { PORT: '3063' })?.env).toEqual({
      PORT: '3063',
      MALLOC_ARENA_MAX: '2',
      MALLOC_MMAP_THRESHOLD_: '262144',
    });
    expect(tunedEdgeProcess([], argv, { MALLOC_ARENA_MAX: '4' })?.env.MALLOC_ARENA_MAX).toBe('4');
  });

  it('leaves a size set by hand, in NODE_OPTIONS or by the start before, and 0 to Node', () => {
    expect(tunedEdgeProcess(['--max-semi-space-size=64'], argv, {})).toBeUndefined();
    expect(tunedEdgeProcess([], argv, { NODE_OPTIONS: '--max-semi-space-size=2' })).toBeUndefined();
    expect(tunedEdgeProcess([], argv, { EDGE_SEMI_SPACE_MIB: '0' })).toBeUndefined();
  });

  it('refuses a size that is not a whole number of MiB, saying which setting', () => {
    for (const bad of ['eight', '-1', '2.5', '4096'])
      expect(() => tunedEdgeProcess([], argv, { EDGE_SEMI_SPACE_MIB: bad })).toThrow(/EDGE_SEMI_SPACE_MIB/);
  });
});
