// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are config files, whose ${VAR} placeholders are what is tested
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from './exit-codes.ts';
import { parseMcpConfig, pickServer, readMcpConfig } from './mcp-config.ts';

const env = { TOKEN: 'secret-token', EMPTY: '', HOME: '/home/ada' };
const parse = (json: unknown) => parseMcpConfig(json, 'mcp.json', { env, cwd: '/srv/project' });

/** The message of the UsageError `run` throws. */
function usageMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
}

describe('mcpServers files', () => {
  it('reads command entries (Claude Desktop, Cursor) and url entries with headers', () => {
    const servers = parse({
      mcpServers: {
        files: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem', '${HOME}/notes'],
          env: { LOG: 'debug' },
        },
        remote: {
          url: 'https://mcp.example.com/mcp',
          headers: { Authorization: 'Bearer ${TOKEN}' },
        },
      },
    });
    expect(Object.fromEntries(servers)).toEqual({
      files: {
        kind: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/ada/notes'],
        env: { LOG: 'debug' },
      },
      remote: {
        kind: 'http',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer secret-token' },
      },
    });
  });

  it("reads VS Code's servers with type, Windsurf's serverUrl and Gemini CLI's httpUrl", () => {
    const servers = parse({
      servers: {
        vscode: { type: 'http', url: 'http://localhost:3000/mcp' },
        legacy: { type: 'sse', url: 'http://localhost:3001/sse' },
        local: { type: 'stdio', command: 'node', args: ['server.js'], cwd: '${workspaceFolder}' },
        windsurf: { serverUrl: 'https://a.example/mcp' },
        gemini: { httpUrl: 'https://b.example/mcp' },
      },
    });
    expect(servers.get('vscode')).toEqual({
      kind: 'http',
      url: 'http://localhost:3000/mcp',
      headers: {},
    });
    expect(servers.get('legacy')).toMatchObject({ kind: 'http', transport: 'sse' });
    expect(servers.get('local')).toEqual({
      kind: 'stdio',
      command: 'node',
      args: ['server.js'],
      env: {},
      cwd: '/srv/project',
    });
    expect(servers.get('windsurf')).toMatchObject({ url: 'https://a.example/mcp' });
    expect(servers.get('gemini')).toMatchObject({ url: 'https://b.example/mcp' });
  });

  it('fills ${VAR:-default} and ${env:VAR} as a shell would, and names an unset variable', () => {
    const servers = parse({
      mcpServers: {
        a: {
          command: 'run',
          args: ['${MISSING:-fallback}', '${EMPTY:-empty-fallback}', '${EMPTY}', '${env:TOKEN}'],
        },
      },
    });
    expect(servers.get('a')).toMatchObject({
      args: ['fallback', 'empty-fallback', '', 'secret-token'],
    });
    const message = usageMessage(() =>
      parse({
        mcpServers: { a: { url: 'https://x.example', headers: { Authorization: '${NOPE}' } } },
      }),
    );
    expect(message).toBe(
      'mcp.json: mcpServers.a.headers.Authorization uses ${NOPE}, which is not set in the environment',
    );
  });

  it('says what is wrong with an entry, and never quotes a value', () => {
    const problems = [
      [{}, 'mcp.json has no "mcpServers" (or "servers") object'],
      [{ mcpServers: [] }, 'mcp.json has no "mcpServers" (or "servers") object'],
      [{ mcpServers: { a: 'npx' } }, 'mcp.json: mcpServers.a is not an object'],
      [{ mcpServers: { a: {} } }, 'mcp.json: mcpServers.a has neither a command nor a url'],
      [
        { mcpServers: { a: { command: 'x', args: 'y' } } },
        'mcp.json: mcpServers.a.args must be a list of strings',
      ],
      [
        { mcpServers: { a: { command: 'x', args: [1] } } },
        'mcp.json: mcpServers.a.args[0] must be a non-empty string',
      ],
      [
        { mcpServers: { a: { command: 'x', env: { K: 1 } } } },
        'mcp.json: mcpServers.a.env.K must be a string',
      ],
      [
        { mcpServers: { a: { url: 'ftp://secret@host' } } },
        'mcp.json: mcpServers.a.url is not an http(s) URL',
      ],
      [{ mcpServers: { a: { type: 'http' } } }, 'mcp.json: mcpServers.a.url is missing'],
      [
        { mcpServers: { a: { type: 'ws', url: 'https://x' } } },
        'mcp.json: mcpServers.a.type must be stdio, http or sse',
      ],
      [
        { mcpServers: { a: { command: 'x', url: 'https://x' } } },
        'mcp.json: mcpServers.a has both a command and a url; keep one',
      ],
      [
        { mcpServers: { a: { command: 'x', envFile: '.env' } } },
        'mcp.json: mcpServers.a.envFile: env files are not read; list the variables in env',
      ],
      [
        { servers: { a: { command: 'x', args: ['${input:key}'] } } },
        'mcp.json: servers.a.args asks for an input (${input:key}), which only an editor can',
      ],
    ] as const;
    for (const [json, expected] of problems) expect(usageMessage(() => parse(json))).toBe(expected);
    expect(
      usageMessage(() => parse({ mcpServers: { a: { url: 'ftp://secret@host' } } })),
    ).not.toContain('secret');
  });

  it('picks the named server, or the only one, and lists the names otherwise', () => {
    const one = parse({ mcpServers: { only: { command: 'x' } } });
    expect(pickServer(one, undefined, 'mcp.json')).toMatchObject({ command: 'x' });
    const two = parse({ mcpServers: { a: { command: 'a' }, b: { command: 'b' } } });
    expect(pickServer(two, 'b', 'mcp.json')).toMatchObject({ command: 'b' });
    expect(usageMessage(() => pickServer(two, undefined, 'mcp.json'))).toBe(
      'mcp.json lists 2 servers; choose one with --server (a, b)',
    );
    expect(usageMessage(() => pickServer(two, 'c', 'mcp.json'))).toBe(
      'mcp.json has no server "c" (it has a, b)',
    );
  });

  describe('from a file', () => {
    let dir = '';
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('reads it, and says when it is missing or not JSON', async () => {
      dir = await mkdtemp(join(tmpdir(), 'toolwire-config-'));
      const file = join(dir, 'mcp.json');
      await writeFile(
        file,
        JSON.stringify({ mcpServers: { a: { url: 'http://127.0.0.1:1/mcp' } } }),
      );
      expect((await readMcpConfig(file)).get('a')).toMatchObject({ kind: 'http' });
      await expect(readMcpConfig(join(dir, 'none.json'))).rejects.toThrow(
        `cannot read ${join(dir, 'none.json')}: ENOENT`,
      );
      await writeFile(file, '{ "mcpServers": ');
      await expect(readMcpConfig(file)).rejects.toThrow(`${file} is not JSON`);
    });
  });
});
