/**
 * Real stdio servers from npm, offline, started as users start them: the official "everything"
 * server (legacy, with server requests), the official v2 server's stdio entry point (2026-07-28,
 * dual-era and modern-only), and the filesystem and memory servers.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMcpClient, type StdioServer } from '@toolwire/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { handles, settledHandles } from '../helpers/handles.ts';
import { binOf, childrenOf, running } from '../helpers/stdio.ts';
import { waitFor } from '../helpers/wait-for.ts';

const node = process.execPath;
const v2Entry = fileURLToPath(new URL('../helpers/v2-stdio-server.ts', import.meta.url));
const text = (result: { content: unknown[] }) => JSON.stringify(result.content);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolwire-stdio-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A client whose close() is checked to leave no child process and no handle behind. */
async function closesClean(
  server: StdioServer,
  use: (client: ReturnType<typeof createMcpClient>) => Promise<void>,
  options = {},
) {
  const baseline = await settledHandles();
  const before = childrenOf(process.pid);
  const client = createMcpClient(server, { ...options });
  const warnings: Error[] = [];
  client.on('warning', (error) => warnings.push(error));
  try {
    await use(client);
  } finally {
    const started = childrenOf(process.pid).filter((pid) => !before.includes(pid));
    await client.close();
    for (const pid of started) expect(running(pid)).toBe(false);
    await waitFor(() => handles() <= baseline);
  }
  return warnings;
}

describe('@modelcontextprotocol/server-everything (stdio, legacy)', () => {
  const server = {
    command: node,
    args: [binOf('@modelcontextprotocol/server-everything'), 'stdio'],
  };

  test('negotiates 2025-11-25 after its refusal of the probe, and its tools work', async () => {
    await closesClean(server, async (client) => {
      const tools = (await client.listTools()).map((tool) => tool.name);
      expect(client.protocolVersion).toBe('2025-11-25');
      expect(tools).toEqual(expect.arrayContaining(['echo', 'get-sum']));
      expect(text(await client.callTool('echo', { message: 'over a pipe' }))).toContain(
        'over a pipe',
      );
      expect(text(await client.callTool('get-sum', { a: 2, b: 40 }))).toContain('42');
    });
  });

  test('its sampling and elicitation requests come on stdout and are answered by the handlers', async () => {
    const asked: string[] = [];
    await closesClean(
      server,
      async (client) => {
        const sampled = await client.callTool('trigger-sampling-request', { prompt: 'Capital?' });
        expect(text(sampled)).toContain('Paris');
        const form = await client.callTool('trigger-elicitation-request');
        expect(text(form)).toContain('Ada');
        expect(asked).toHaveLength(1);
      },
      {
        onSampling: async () => ({
          role: 'assistant',
          content: { type: 'text', text: 'Paris' },
          model: 'test-model',
        }),
        onElicitation: async (request: { message: string }) => {
          asked.push(request.message);
          return {
            action: 'accept',
            content: { name: 'Ada', check: true, email: 'ada@example.com' },
          };
        },
      },
    );
  });
});

describe('the official v2 server, serveStdio', () => {
  test('dual-era: spoken to at 2026-07-28, input_required answered by the handler', async () => {
    const warnings = await closesClean(
      { command: node, args: [v2Entry] },
      async (client) => {
        expect(text(await client.callTool('echo', { text: 'hi' }))).toContain('hi');
        expect(client.protocolVersion).toBe('2026-07-28');
        expect((await client.callTool('add', { a: 1, b: 2 })).structuredContent).toEqual({
          sum: 3,
        });
        const steps: number[] = [];
        await client.callTool(
          'progress',
          { steps: 2 },
          { onProgress: (p) => steps.push(p.progress) },
        );
        expect(steps).toEqual([1, 2]);
        expect(text(await client.callTool('deploy', { env: 'prod' }))).toContain(
          'deployed to prod',
        );
      },
      { onElicitation: async () => ({ action: 'accept', content: { confirm: true } }) },
    );
    expect(warnings).toEqual([]);
  });

  test('modern-only (legacy: reject): still 2026-07-28; pinned to legacy, refused', async () => {
    await closesClean({ command: node, args: [v2Entry, 'modern-only'] }, async (client) => {
      await client.connect();
      expect(client.protocolVersion).toBe('2026-07-28');
    });
    await using legacy = createMcpClient(
      { command: node, args: [v2Entry, 'modern-only'] },
      { protocolVersion: 'legacy' },
    );
    await expect(legacy.connect()).rejects.toMatchObject({ code: 'UNSUPPORTED_VERSION' });
  });

  test('the same server as a legacy one, when the client is pinned to it', async () => {
    await closesClean(
      { command: node, args: [v2Entry] },
      async (client) => {
        expect(text(await client.callTool('echo', { text: 'old' }))).toContain('old');
        expect(client.protocolVersion).toBe('2025-11-25');
      },
      { protocolVersion: 'legacy' },
    );
  });
});

describe('@modelcontextprotocol/server-filesystem', () => {
  test('reads and writes inside the directory it is given, and nowhere else', async () => {
    await writeFile(join(dir, 'hello.txt'), 'hello from disk');
    await closesClean(
      { command: node, args: [binOf('@modelcontextprotocol/server-filesystem'), dir] },
      async (client) => {
        expect(
          text(await client.callTool('read_text_file', { path: join(dir, 'hello.txt') })),
        ).toContain('hello from disk');
        await client.callTool('write_file', { path: join(dir, 'out.txt'), content: 'written' });
        expect(await readFile(join(dir, 'out.txt'), 'utf8')).toBe('written');
        const outside = await client.callTool('read_text_file', { path: '/etc/hostname' });
        expect(outside.isError).toBe(true);
      },
    );
  });
});

describe('@modelcontextprotocol/server-memory', () => {
  test('keeps a knowledge graph in the file its environment names', async () => {
    const file = join(dir, 'memory.jsonl');
    await closesClean(
      {
        command: node,
        args: [binOf('@modelcontextprotocol/server-memory')],
        env: { MEMORY_FILE_PATH: file },
      },
      async (client) => {
        await client.callTool('create_entities', {
          entities: [
            { name: 'Ada', entityType: 'person', observations: ['wrote the first program'] },
          ],
        });
        const graph = await client.callTool('read_graph');
        expect(text(graph)).toContain('wrote the first program');
      },
    );
    expect(await readFile(file, 'utf8')).toContain('Ada');
  });
});
