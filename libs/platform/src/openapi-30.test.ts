import { describe, expect, it } from 'vitest';
import { openApi30, schemaFor30 } from './openapi-30.ts';

describe('the document as OpenAPI 3.0.3', () => {
  it('says null among the types, constants, exclusive bounds, examples and tuples as 3.0 does', () => {
    expect(schemaFor30({ type: ['string', 'null'], maxLength: 5 })).toEqual({
      type: 'string',
      maxLength: 5,
      nullable: true,
    });
    expect(schemaFor30({ anyOf: [{ type: 'integer' }, { type: 'null' }] })).toEqual({
      type: 'integer',
      nullable: true,
    });
    expect(schemaFor30({ anyOf: [{ $ref: '#/components/schemas/Error' }, { type: 'null' }] })).toEqual({
      allOf: [{ $ref: '#/components/schemas/Error' }],
      nullable: true,
    });
    expect(schemaFor30({ type: ['string', 'number'] })).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }] });
    expect(schemaFor30({ const: 'hydration' })).toEqual({ enum: ['hydration'] });
    expect(schemaFor30({ type: 'number', exclusiveMinimum: 0 })).toEqual({
      type: 'number',
      minimum: 0,
      exclusiveMinimum: true,
    });
    expect(schemaFor30({ type: 'object', examples: [{ a: 1 }, { a: 2 }] })).toEqual({
      type: 'object',
      example: { a: 1 },
    });
    expect(schemaFor30({ type: 'array', prefixItems: [{ type: 'number' }, { type: 'string' }] })).toEqual({
      type: 'array',
      items: { anyOf: [{ type: 'number' }, { type: 'string' }] },
      minItems: 2,
      maxItems: 2,
    });
    expect(
      schemaFor30({
        type: 'object',
        propertyNames: { pattern: '^a' },
        additionalProperties: { type: ['boolean', 'null'] },
      }),
    ).toEqual({ type: 'object', additionalProperties: { type: 'boolean', nullable: true } });
  });

  it('rewrites the schemas of parameters, bodies, responses and components, and nothing else', () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 't', version: '1.0.0' },
      paths: {
        '/x/{id}': {
          post: {
            summary: 'kept as it is',
            parameters: [{ name: 'id', in: 'path', schema: { type: ['string', 'null'] } }],
            requestBody: { content: { 'application/json': { schema: { const: 1 } } } },
            responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'null' } } } } },
          },
        },
      },
      components: { schemas: { Error: { type: 'object', properties: { id: { type: ['string', 'null'] } } } } },
    };
    const converted = openApi30(document);
    expect(converted.openapi).toBe('3.0.3');
    const operation = converted.paths['/x/{id}'].post;
    expect(operation.summary).toBe('kept as it is');
    expect(operation.parameters[0]!.schema).toEqual({ type: 'string', nullable: true });
    expect(operation.requestBody.content['application/json'].schema).toEqual({ enum: [1] });
    expect(operation.responses[200].content['application/json'].schema).toEqual({ nullable: true, enum: [null] });
    expect(converted.components.schemas.Error.properties.id).toEqual({ type: 'string', nullable: true });
    // The input is left as it was (the process keeps serving it as 3.1 too).
    expect(document.openapi).toBe('3.1.0');
  });
});
