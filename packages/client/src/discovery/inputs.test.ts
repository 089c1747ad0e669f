import { describe, expect, test } from 'vitest';
import { MissingInputError } from '../core/errors.ts';
import { fillInput, fillTemplate, type InputRequest } from './inputs.ts';

describe('fillInput', () => {
  test('a fixed value fills its own variables through the source, and is secret when one of them is', async () => {
    const asked: string[] = [];
    const filled = await fillInput(
      'header:Authorization',
      'Authorization',
      { value: 'Bearer {token}', variables: { token: { isRequired: true, isSecret: true } } },
      (request: InputRequest) => {
        asked.push(request.key);
        return 's3cr3t';
      },
    );
    expect(filled).toEqual({ value: 'Bearer s3cr3t', secret: true });
    expect(asked).toEqual(['header:Authorization.token']);
  });

  test('the default stands in when nothing is given; an optional input without one is left out', async () => {
    expect(await fillInput('variable:tenant', 'tenant', { default: 'acme' }, {})).toEqual({
      value: 'acme',
      secret: false,
    });
    expect(await fillInput('variable:region', 'region', {}, {})).toBeUndefined();
  });

  test('a record answers by key, else by bare name', async () => {
    expect(await fillInput('env:API_KEY', 'API_KEY', {}, { API_KEY: 'k' })).toEqual({
      value: 'k',
      secret: false,
    });
    expect(
      await fillInput('env:API_KEY', 'API_KEY', {}, { 'env:API_KEY': 'by-key', API_KEY: 'k' }),
    ).toEqual({
      value: 'by-key',
      secret: false,
    });
  });

  test('a required input nobody gives is a MissingInputError naming it', async () => {
    const error = await fillInput('header:X-Key', 'X-Key', { isRequired: true }, undefined).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MissingInputError);
    expect(error).toMatchObject({ code: 'MISSING_INPUT', family: 'local', input: 'header:X-Key' });
  });

  test('a value outside its choices or its format is refused, and the message never holds the value', async () => {
    const secret = 'hunter2-very-secret';
    const choice = await fillInput(
      'header:Plan',
      'Plan',
      { isSecret: true, choices: ['a', 'b'] },
      () => secret,
    ).catch((e: unknown) => e as Error);
    expect(choice).toBeInstanceOf(MissingInputError);
    expect(
      JSON.stringify({ ...(choice as object), message: (choice as Error).message }),
    ).not.toContain(secret);
    const number = await fillInput(
      'argument:--port',
      '--port',
      { format: 'number' },
      () => 'eighty',
    ).catch((e: unknown) => e);
    expect(number).toBeInstanceOf(MissingInputError);
    const flag = await fillInput('env:DEBUG', 'DEBUG', { format: 'boolean' }, () => 'yes').catch(
      (e: unknown) => e,
    );
    expect(flag).toBeInstanceOf(MissingInputError);
    expect(await fillInput('env:DEBUG', 'DEBUG', { format: 'boolean' }, () => 'true')).toEqual({
      value: 'true',
      secret: false,
    });
  });
});

describe('fillTemplate', () => {
  test('a URL may start with a variable; a name the map lacks stays as written', async () => {
    const filled = await fillTemplate(
      '{baseUrl}/mcp/{unknown}',
      { baseUrl: { isRequired: true } },
      (name) => `variable:${name}`,
      { baseUrl: 'https://mcp.example.com' },
    );
    expect(filled).toEqual({ value: 'https://mcp.example.com/mcp/{unknown}', secret: false });
  });
});
