/**
 * The gRPC stack is loaded for grpc URLs only: a program that imports the client and speaks HTTP
 * loads no module of Connect, protobuf-es or the gRPC binding, so its import time is unchanged.
 * Each case runs in a fresh process that records every module it resolves.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startReferenceServer } from '@toolwire/reference-server';
import { startGrpcReferenceServer } from '@toolwire/reference-server/grpc';
import { expect, test } from 'vitest';

/** The client as these tests load it (its sources or its build), for the child to import. */
const client = import.meta.resolve('@toolwire/client');
const conditions = client.endsWith('.ts') ? ['--conditions=@toolwire/source'] : [];

/** Runs `body` after importing the client in a fresh Node; returns the gRPC modules it loaded. */
async function grpcModulesLoaded(body: string): Promise<string[]> {
  const program = `
    import { registerHooks } from 'node:module';
    const seen = [];
    registerHooks({ resolve(specifier, context, next) {
      const resolved = next(specifier, context);
      seen.push(resolved.url);
      return resolved;
    } });
    const { createMcpClient } = await import(${JSON.stringify(client)});
    ${body}
    const grpc = seen.filter((url) => /@connectrpc|@bufbuild|mcp-lite\\/grpc\\/(binding|gen)/.test(url));
    process.stdout.write(JSON.stringify(grpc));
  `;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', ...conditions, '--eval', program],
    { timeout: 60_000 },
  );
  return JSON.parse(stdout) as string[];
}

test('importing the client and calling over HTTP loads no gRPC code', async () => {
  await using server = await startReferenceServer();
  const loaded = await grpcModulesLoaded(`
    await using client = createMcpClient(${JSON.stringify(server.urls.mcpLite)});
    await client.callTool('echo', { text: 'x' });
  `);
  expect(loaded).toEqual([]);
});

test('a grpc URL loads it, when the client connects', async () => {
  await using server = await startGrpcReferenceServer();
  const loaded = await grpcModulesLoaded(`
    await using client = createMcpClient(${JSON.stringify(server.url)});
    await client.callTool('echo', { text: 'x' });
  `);
  expect(loaded.some((url) => url.includes('@connectrpc/connect-node'))).toBe(true);
  expect(loaded.some((url) => url.includes('mcp-lite/grpc/binding'))).toBe(true);
});
