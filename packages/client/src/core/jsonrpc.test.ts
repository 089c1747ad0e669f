import { describe, expect, it } from 'vitest';
import { classify, parseMessages } from './jsonrpc.ts';

describe('classify', () => {
  it('classifies a message with a method and an id as a request', () => {
    const value = { jsonrpc: '2.0', id: 7, method: 'ping', params: { a: 1 } };
    expect(classify(value)).toEqual({ kind: 'request', message: value });
  });

  it('accepts a string id on a request', () => {
    const value = { jsonrpc: '2.0', id: 'abc', method: 'roots/list' };
    expect(classify(value)).toEqual({ kind: 'request', message: value });
  });

  it('classifies a message with a method and no id as a notification', () => {
    const value = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
    expect(classify(value)).toEqual({ kind: 'notification', message: value });
  });

  it('classifies a message with a result as a success response', () => {
    const value = { jsonrpc: '2.0', id: 1, result: { tools: [] } };
    expect(classify(value)).toEqual({ kind: 'response', message: value });
  });

  it('classifies a message with an error as an error response', () => {
    const value = { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'nope' } };
    expect(classify(value)).toEqual({ kind: 'response', message: value });
  });

  it('accepts an error response whose id is null', () => {
    const value = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } };
    expect(classify(value)).toEqual({ kind: 'response', message: value });
  });

  it.each([
    ['a null id', null],
    ['a boolean id', true],
    ['an object id', { n: 1 }],
  ])('rejects a request with %s', (_label, id) => {
    expect(classify({ jsonrpc: '2.0', id, method: 'ping' })).toBe('request ping has an invalid id');
  });

  it('rejects a success response whose id is null', () => {
    expect(classify({ jsonrpc: '2.0', id: null, result: {} })).toBe('response with an invalid id');
  });

  it('rejects an error response whose id is neither null, a string nor a number', () => {
    const value = { jsonrpc: '2.0', id: [1], error: { code: 1, message: 'x' } };
    expect(classify(value)).toBe('error response with an invalid id');
  });

  it('rejects an error object without a numeric code and a message', () => {
    const value = { jsonrpc: '2.0', id: 1, error: { code: '1', message: 'x' } };
    expect(classify(value)).toBe('error response without a numeric code and a message');
  });

  it.each([
    ['an array', [1, 2]],
    ['a string', 'x'],
    ['null', null],
  ])('rejects params that are %s', (_label, params) => {
    expect(classify({ jsonrpc: '2.0', method: 'ping', params })).toBe(
      '"params" of ping is not an object',
    );
  });

  it.each([
    ['a number', 5],
    ['an array', []],
    ['null', null],
  ])('rejects a result that is %s', (_label, result) => {
    expect(classify({ jsonrpc: '2.0', id: 1, result })).toBe(
      'response whose "result" is not an object',
    );
  });

  it('rejects a message without "jsonrpc": "2.0"', () => {
    expect(classify({ id: 1, result: {} })).toBe('missing "jsonrpc": "2.0"');
    expect(classify({ jsonrpc: '1.0', id: 1, result: {} })).toBe('missing "jsonrpc": "2.0"');
  });

  it('rejects values that are not JSON objects', () => {
    expect(classify([])).toBe('not a JSON object');
    expect(classify('hello')).toBe('not a JSON object');
    expect(classify(null)).toBe('not a JSON object');
  });

  it('rejects an object that is neither a request, a notification nor a response', () => {
    expect(classify({ jsonrpc: '2.0', id: 1 })).toBe(
      'neither a request, a notification nor a response',
    );
  });
});

describe('parseMessages', () => {
  it('reports invalid JSON', () => {
    expect(parseMessages('{"jsonrpc": ')).toBe('invalid JSON');
  });

  it('reports an empty array, which JSON-RPC calls an invalid batch', () => {
    expect(parseMessages('[]')).toBe('an empty batch');
  });

  it('parses a single message into a one-element list', () => {
    const text = JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} });
    expect(parseMessages(text)).toEqual([{ kind: 'response', message: JSON.parse(text) }]);
  });

  it('parses an array as a batch of messages, in order', () => {
    const batch = [
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } },
      { jsonrpc: '2.0', id: 2, result: { ok: true } },
    ];
    expect(parseMessages(JSON.stringify(batch))).toEqual([
      { kind: 'notification', message: batch[0] },
      { kind: 'response', message: batch[1] },
    ]);
  });

  it('rejects a whole batch when one item is not a message, naming what was wrong', () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: 3 },
    ];
    expect(parseMessages(JSON.stringify(batch))).toBe('response whose "result" is not an object');
  });
});
