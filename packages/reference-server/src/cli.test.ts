import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { initializeParams, rpc } from './testing/client.ts';

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));

describe('toolwire-reference-server bin', () => {
  it('prints the endpoint URLs, serves MCP on them, and exits cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, '--port', '0', '--host', '127.0.0.1'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = once(child, 'exit');
    let output = '';
    child.stdout.setEncoding('utf8');
    for await (const chunk of child.stdout) {
      output += String(chunk);
      if (output.includes('/mcp-stateless')) break;
    }
    const urls = output.match(/http:\/\/127\.0\.0\.1:\d+\/mcp[\w-]*/g) ?? [];
    expect(urls.map((url) => new URL(url).pathname)).toEqual([
      '/mcp',
      '/mcp-json',
      '/mcp-stateless',
    ]);

    const http = await fetch(urls[2] ?? '', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(rpc(1, 'initialize', initializeParams('2025-11-25'))),
    });
    expect(await http.json()).toMatchObject({ result: { protocolVersion: '2025-11-25' } });

    child.kill('SIGTERM');
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  });
});
