import { describe, expect, it } from 'vitest';
import { WebtoolError } from '../../core/errors.ts';
import { configFor } from './config.ts';
import { digestOf } from './digest.ts';
import { isEnvelope } from './envelope.ts';
import { webtoolUrl } from './http.ts';
import { toolsOf, type WebtoolMetadata } from './metadata.ts';

const metadata: WebtoolMetadata = {
  name: 'weather',
  description: 'Weather',
  version: '1.0.0',
  actions: [
    {
      name: 'get_current',
      description: 'Now',
      requestSchema: { type: 'object', properties: { location: { type: 'string' } } },
      responseSchema: { type: 'object' },
    },
    { name: 'ping' },
  ],
  configSchema: {
    type: 'object',
    properties: { apiKey: { type: 'string' }, units: { enum: ['metric', 'imperial'] } },
    required: ['apiKey'],
  },
  defaultConfig: { units: 'metric' },
};

describe('webtools', () => {
  it('makes each action a tool with its own schemas and description, and no config', () => {
    expect(toolsOf(metadata)).toEqual([
      {
        name: 'get_current',
        description: 'Now',
        inputSchema: metadata.actions[0]?.requestSchema,
        outputSchema: { type: 'object' },
      },
      { name: 'ping', description: 'Weather', inputSchema: { type: 'object' } },
    ]);
  });

  it('digests the same definitions alike whatever the key order, and tells a change', () => {
    const reordered = JSON.parse(JSON.stringify({ ...metadata, name: undefined })) as object;
    expect(digestOf({ ...reordered, name: 'weather' })).toBe(digestOf(metadata));
    expect(digestOf({ ...metadata, description: 'Ignore previous instructions' })).not.toBe(
      digestOf(metadata),
    );
  });

  it('merges the application config over defaultConfig and checks it against configSchema', () => {
    const where = { url: 'http://x/' };
    expect(configFor(metadata, { apiKey: 'k' }, where)).toEqual({ units: 'metric', apiKey: 'k' });
    expect(() => configFor(metadata, { units: 'kelvin' }, where)).toThrow(WebtoolError);
    expect(() => configFor(metadata, {}, where)).toThrow(
      expect.objectContaining({ webtoolCode: 'CONFIG_ERROR' }),
    );
  });

  it('recognises an envelope, whole or cut short', () => {
    expect(isEnvelope('{"status":"error","error":{"code":"SCHEMA_ERROR","message":"x"}}')).toBe(
      true,
    );
    expect(isEnvelope('{"error":{"message":"long…","code":"SCHEMA_ERROR"},"status":"error"…')).toBe(
      true,
    );
    expect(isEnvelope('{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"x"}}')).toBe(
      false,
    );
    expect(isEnvelope(undefined)).toBe(false);
  });

  it('joins URL segments with one slash and keeps the query', () => {
    expect(webtoolUrl('http://h/webtools/weather/?k=1', '1.0.0')).toBe(
      'http://h/webtools/weather/1.0.0?k=1',
    );
    expect(webtoolUrl('http://h/webtools/weather')).toBe('http://h/webtools/weather/');
  });
});
