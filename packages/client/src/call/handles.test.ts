import { describe, expect, it } from 'vitest';
import { type CallHandle, checkHandle, memoryHandleStore } from './handles.ts';

const handle = (over: Partial<CallHandle> = {}): CallHandle => ({
  kind: 'task',
  id: 't-1',
  url: 'http://127.0.0.1:1/mcp',
  dialect: 'mcp-stateless',
  tool: 'slow',
  issuedAt: '2026-11-23T00:00:00.000Z',
  ...over,
});

describe('memoryHandleStore', () => {
  it('keeps copies until deleted, one per url, kind and id', () => {
    const store = memoryHandleStore();
    const first = handle();
    store.save(first);
    store.save({ ...first, tool: 'again' });
    store.save(handle({ id: 't-2' }));
    first.tool = 'changed after saving';
    expect(store.list().map((h) => [h.id, h.tool])).toEqual([
      ['t-1', 'again'],
      ['t-2', 'slow'],
    ]);
    store.delete(handle());
    expect(store.list().map((h) => h.id)).toEqual(['t-2']);
  });

  it('leaves out handles past their expiry', () => {
    const store = memoryHandleStore();
    store.save(handle({ id: 'old', expiresAt: new Date(Date.now() - 1_000).toISOString() }));
    store.save(handle({ id: 'new', expiresAt: new Date(Date.now() + 60_000).toISOString() }));
    store.save(handle({ id: 'forever' }));
    expect(store.list().map((h) => h.id)).toEqual(['new', 'forever']);
  });
});

describe('checkHandle', () => {
  it('accepts a handle read back from JSON', () => {
    const stored = JSON.parse(JSON.stringify(handle({ expiresAt: '2026-11-24T00:00:00.000Z' })));
    expect(checkHandle(stored)).toEqual(stored);
  });

  it.each([
    [null, /an object/],
    [{ ...handle(), kind: 'job' }, /kind to be 'task' or 'promise'/],
    [{ ...handle(), id: '' }, /id to be a non-empty string/],
    [{ ...handle(), url: undefined }, /url to be a non-empty string/],
    [{ ...handle(), expiresAt: 5 }, /expiresAt to be a string/],
  ])('refuses %j with a TypeError saying what is wrong', (value, message) => {
    expect(() => checkHandle(value)).toThrow(TypeError);
    expect(() => checkHandle(value)).toThrow(message);
  });
});
