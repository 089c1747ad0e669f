import { describe, expect, it } from 'vitest';
import { readTargets } from './targets.ts';

describe('createMcpClients targets', () => {
  it('takes URLs, URLs with options of their own, and commands', () => {
    const shared = { headers: { 'x-app': 'a' }, timeoutMs: 5_000 };
    const entries = readTargets(
      {
        plain: 'http://127.0.0.1:1/mcp',
        own: { url: 'http://127.0.0.1:2/mcp', headers: { authorization: 'Bearer t' } },
        local: { command: 'npx', args: ['-y', 'server'], env: { TOKEN: 't' } },
      },
      shared,
    );
    expect(entries).toEqual([
      { name: 'plain', target: 'http://127.0.0.1:1/mcp', options: shared },
      {
        name: 'own',
        target: 'http://127.0.0.1:2/mcp',
        options: { timeoutMs: 5_000, headers: { 'x-app': 'a', authorization: 'Bearer t' } },
      },
      {
        name: 'local',
        target: { command: 'npx', args: ['-y', 'server'], env: { TOKEN: 't' } },
        options: shared,
      },
    ]);
  });

  it('reads an mcpServers configuration: commands, URLs (sse by type), disabled entries left out', () => {
    const entries = readTargets(
      {
        mcpServers: {
          memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
          remote: { url: 'https://example.com/mcp', headers: { authorization: 'Bearer t' } },
          old: { type: 'sse', url: 'https://example.com/sse' },
          off: { command: 'nope', disabled: true },
        },
      },
      {},
    );
    expect(entries).toEqual([
      {
        name: 'memory',
        target: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
        options: {},
      },
      {
        name: 'remote',
        target: 'https://example.com/mcp',
        options: { dialect: 'mcp', headers: { authorization: 'Bearer t' } },
      },
      { name: 'old', target: 'https://example.com/sse', options: { dialect: 'mcp-sse' } },
    ]);
  });

  it.each([
    [{}, /at least one server/],
    [{ 'a.b': 'http://x/' }, /server names of letters.*got "a\.b"/],
    [{ a: 42 }, /server "a": expected a URL/],
    [{ mcpServers: { a: { args: [] } } }, /mcpServers\.a: expected a "command" or a "url"/],
  ])('refuses %j with a TypeError naming the problem', (targets, message) => {
    expect(() => readTargets(targets as never, {})).toThrow(message);
  });
});

describe('headers that are functions', () => {
  it('are asked before each request, the server’s over the shared ones', async () => {
    const [entry] = readTargets(
      { one: { url: 'http://127.0.0.1:1/mcp', headers: () => ({ b: 'own', c: 'own' }) } },
      { headers: { a: 'shared', b: 'shared' } },
    );
    const headers = entry!.options.headers;
    expect(typeof headers).toBe('function');
    const request = {
      url: 'http://127.0.0.1:1/mcp',
      method: 'POST',
      signal: new AbortController().signal,
    };
    expect(await (headers as (r: typeof request) => Promise<unknown>)(request)).toEqual({
      a: 'shared',
      b: 'own',
      c: 'own',
    });
  });
});
