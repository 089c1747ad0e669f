import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { initializeParams, rpc } from './testing/client.ts';

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));

/** Runs the bin and reads its output up to the last endpoint it prints. */
async function startCli(...args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  let output = '';
  child.stdout.setEncoding('utf8');
  for await (const chunk of child.stdout) {
    output += String(chunk);
    if (output.includes('/webtools/')) break;
  }
  return { child, exited, output };
}

describe('toolwire-reference-server bin', () => {
  it('prints the endpoint URLs, serves MCP on them, and exits cleanly on SIGTERM', async () => {
    const { child, exited, output } = await startCli('--port', '0', '--host', '127.0.0.1');
    const urls = output.match(/http:\/\/127\.0\.0\.1:\d+\/[\w/-]*/g) ?? [];
    expect(urls.map((url) => new URL(url).pathname)).toEqual([
      '/mcp',
      '/mcp-json',
      '/mcp-stateless',
      '/mcp-modern',
      '/sse',
      '/mcp-lite/v1',
      '/webtools/weather',
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

  it('with --grpc, also serves MCP-lite over gRPC on a port of its own', async () => {
    const { child, exited, output } = await startCli('--grpc');
    const url = /MCP-lite over gRPC: +(grpc:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    expect(url).toBeDefined();
    // An HTTP/2 POST of GetTools with no message: a gRPC answer, whatever its status.
    const { connect } = await import('node:http2');
    const session = connect(url!.replace('grpc:', 'http:'));
    const stream = session.request({
      ':method': 'POST',
      ':path': '/mcplite.MCPLite/GetTools',
      'content-type': 'application/grpc',
      te: 'trailers',
    });
    stream.end(Buffer.from([0, 0, 0, 0, 0]));
    const [headers] = await once(stream, 'response');
    expect(headers['content-type']).toBe('application/grpc+proto');
    stream.resume();
    await once(stream, 'close');
    session.close();
    child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
  });

  it('with --conformance, /mcp also serves 2026-07-28 (dual-era), as the suites need', async () => {
    const { child, exited, output } = await startCli('--conformance');
    const url = /http:\/\/127\.0\.0\.1:\d+\/mcp\b/.exec(output)?.[0] ?? '';
    const http = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'server/discover',
      },
      body: JSON.stringify(
        rpc(1, 'server/discover', {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'cli-test', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        }),
      ),
    });
    expect(await http.json()).toMatchObject({
      result: { supportedVersions: expect.arrayContaining(['2026-07-28', '2025-11-25']) },
    });
    child.kill('SIGTERM');
    await exited;
  });

  it('with --stdio, serves one client on its standard streams and exits when stdin ends', async () => {
    const child = spawn(process.execPath, [CLI, '--stdio', '--era', 'legacy'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const exited = once(child, 'exit');
    child.stdin.write(`${JSON.stringify(rpc(1, 'initialize', initializeParams('2025-11-25')))}\n`);
    child.stdout.setEncoding('utf8');
    let output = '';
    for await (const chunk of child.stdout) {
      output += String(chunk);
      if (output.includes('\n')) break;
    }
    expect(JSON.parse(output)).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
    child.stdin.end();
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  });
});
