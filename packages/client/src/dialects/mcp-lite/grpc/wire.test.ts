import { create } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import {
  ResponseMetaSchema,
  type ResponseType,
  ToolResponseSchema,
  ToolSchema,
} from './gen/mcplite/mcplite_pb.ts';
import { httpBaseOf, isGrpcUrl } from './url.ts';
import { resultOf, toolJson } from './wire.ts';

describe('a ToolResponse in the HTTP binding`s shape', () => {
  it('reads the seed`s fields: the enum by name, epoch milliseconds as ISO 8601', () => {
    const response = create(ToolResponseSchema, {
      result: { content: [{ document_id: 'doc_1' }] },
      meta: {
        responseType: 1,
        promiseToken: 'prom_x',
        timestamp: 1704110400000n,
        processingTimeMs: 145,
      },
    });
    expect(resultOf(response)).toEqual({
      content: [{ document_id: 'doc_1' }],
      _meta: {
        response_type: 'promise',
        promise_token: 'prom_x',
        timestamp: '2024-01-01T12:00:00.000Z',
        processing_time_ms: 145,
      },
    });
  });

  it('reads zero and empty scalars of the seed as absent, and no meta as no _meta', () => {
    expect(resultOf(create(ToolResponseSchema, { meta: {} }))).toEqual({
      _meta: { response_type: 'answer' },
    });
    expect(resultOf(create(ToolResponseSchema, { result: { partial: 'x' } }))).toEqual({
      partial: 'x',
    });
  });

  it('reads the added fields: estimated_completion, server_version, elicitation, extra', () => {
    const meta = create(ResponseMetaSchema, {
      responseType: 4,
      estimatedCompletion: 1704110700000n,
      serverVersion: 'v1',
      elicitation: { message: 'How many?' },
      extra: { resource: 'gpu_minutes', response_type: 'not this one' },
    });
    expect(resultOf(create(ToolResponseSchema, { meta }))['_meta']).toEqual({
      response_type: 'request-for-more-resource',
      estimated_completion: '2024-01-01T12:05:00.000Z',
      server_version: 'v1',
      elicitation: { message: 'How many?' },
      resource: 'gpu_minutes',
    });
  });

  it('keeps an enum value it does not know as its number, and a time no date holds too', () => {
    const meta = create(ResponseMetaSchema, {
      responseType: 42 as ResponseType,
      timestamp: 9_000_000_000_000_000n,
    });
    expect(resultOf(create(ToolResponseSchema, { meta }))['_meta']).toEqual({
      response_type: 42,
      timestamp: 9_000_000_000_000_000,
    });
  });

  it('turns a Tool into a tool definition; an empty type is no @type', () => {
    const tool = create(ToolSchema, { name: 'echo', inputSchema: { type: 'object' } });
    expect(toolJson(tool)).toEqual({ name: 'echo', inputSchema: { type: 'object' } });
    expect(toolJson(create(ToolSchema, { name: 'r', type: 'system', description: 'd' }))).toEqual({
      name: 'r',
      '@type': 'system',
      description: 'd',
      inputSchema: { type: 'object' },
    });
  });
});

describe('grpc URLs', () => {
  it('are grpc: and grpcs: only', () => {
    expect(isGrpcUrl('grpc://h:1')).toBe(true);
    expect(isGrpcUrl(new URL('GRPCS://h'))).toBe(true);
    expect(isGrpcUrl('https://h')).toBe(false);
  });

  it('map onto HTTP/2 URLs, 80 and 443 by default, a path kept as a prefix', () => {
    expect(httpBaseOf('grpc://127.0.0.1:50051')).toBe('http://127.0.0.1:50051');
    expect(httpBaseOf('grpcs://example.com/api/')).toBe('https://example.com:443/api');
    expect(httpBaseOf('grpc://[::1]')).toBe('http://[::1]:80');
  });
});
