import { z } from 'zod';
import { ProjectFile } from './model.ts';

/** The project file's JSON Schema, for editors (the YAML language server reads the file's first-line comment). */
export function projectSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ProjectFile, { target: 'draft-7', unrepresentable: 'any' }),
    title: 'Bunting project file',
    description: 'One project: its flags with their environments, strategies and variants, and the segments they use.',
  };
}
