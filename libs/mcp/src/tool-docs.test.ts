import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { toolDocs } from './tool-docs.ts';

describe('the tool documentation', () => {
  it('is what the tools say of themselves (npm run generate:mcp-docs writes it again)', async () => {
    const written = await readFile(new URL('../TOOLS.md', import.meta.url), 'utf8');
    expect(written).toBe(await toolDocs());
  });
});
