import fastJsonStringify from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type SerializerInput = Parameters<typeof zodSerializerCompiler>[0];

/**
 * Answers are written through their route's schema: fast-json-stringify, compiled from the zod schema's JSON Schema,
 * writes only the fields the schema lists (nothing the contract does not name leaks) and is faster than
 * JSON.stringify; a schema it cannot compile is served by zod's serializer (check, strip, then stringify).
 * bench/src/serialisation.ts measures the three.
 */
export function answerSerializerCompiler(input: SerializerInput): (data: unknown) => string {
  // Compiled on a route's first answer: a process has some 300 routes, and most answer rarely or never.
  let serialise: ((data: unknown) => string) | undefined;
  return (data) => (serialise ??= compile(input))(data);
}

function compile(input: SerializerInput): (data: unknown) => string {
  const schema = input.schema as unknown;
  if (schema instanceof z.ZodType) {
    try {
      return fastJsonStringify(
        z.toJSONSchema(schema, {
          io: 'output',
          target: 'draft-07',
          reused: 'inline',
          unrepresentable: 'any',
        }) as object,
      );
    } catch {
      // Falls through to zod's own.
    }
  }
  return zodSerializerCompiler(input) as (data: unknown) => string;
}
