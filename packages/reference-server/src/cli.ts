#!/usr/bin/env node
/**
 * `toolwire-reference-server [--port N] [--host H] [--conformance] [--dual-era] [--grpc]`: runs the
 * reference server until SIGINT or SIGTERM and prints its endpoint URLs, one per line. `--grpc`
 * also starts MCP-lite's gRPC binding (its module, and the Connect packages, load only then).
 */
import { parseArgs } from 'node:util';
import { startReferenceServer } from './index.ts';

const USAGE = `Usage: toolwire-reference-server [--port N] [--host H] [--conformance] [--dual-era]
                                 [--grpc] [--grpc-port N]

  --port N         TCP port to listen on (default 0: any free port)
  --host H         interface to bind (default 127.0.0.1)
  --conformance    also offer the fixtures the MCP conformance suite's server scenarios name
  --dual-era       /mcp and /mcp-json serve MCP 2026-07-28 beside the stateful revisions
                   (--conformance implies it)
  --grpc           also serve MCP-lite's gRPC binding (grpc://), on a port of its own
  --grpc-port N    its TCP port (default 0: any free port; implies --grpc)
`;

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    conformance: { type: 'boolean' },
    'dual-era': { type: 'boolean' },
    grpc: { type: 'boolean' },
    'grpc-port': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help === true) {
  process.stdout.write(USAGE);
} else {
  const port = values.port === undefined ? 0 : Number(values.port);
  const server = await startReferenceServer({
    port,
    conformanceFixtures: values.conformance === true,
    // The conformance suites judge both eras at one URL, so their fixtures come with both.
    dualEra: values['dual-era'] === true || values.conformance === true,
    ...(values.host === undefined ? {} : { host: values.host }),
  });
  const grpc =
    values.grpc === true || values['grpc-port'] !== undefined
      ? await (await import('./grpc.ts')).startGrpcReferenceServer({
          port: values['grpc-port'] === undefined ? 0 : Number(values['grpc-port']),
          ...(values.host === undefined ? {} : { host: values.host }),
        })
      : undefined;
  process.stdout.write(
    [
      'toolwire reference MCP server is listening:',
      `  stateful, SSE answers:  ${server.urls.stateful}`,
      `  stateful, JSON answers: ${server.urls.statefulJson}`,
      `  stateless:              ${server.urls.stateless}`,
      `  2026-07-28 only:        ${server.urls.modern}`,
      `  HTTP+SSE (2024-11-05):  ${server.urls.sse}`,
      `  MCP-lite:               ${server.urls.mcpLite}`,
      `  Webtools:               ${server.urls.webtools}`,
      ...(grpc ? [`  MCP-lite over gRPC:     ${grpc.url}`] : []),
      '',
    ].join('\n'),
  );
  const stop = (): void => {
    // Once every socket and timer is gone nothing keeps the event loop alive, so the process exits.
    Promise.all([server.close(), grpc?.close()]).catch((error: unknown) => {
      process.stderr.write(`close failed: ${String(error)}\n`);
      process.exitCode = 1;
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
