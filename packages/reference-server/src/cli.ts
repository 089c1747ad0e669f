#!/usr/bin/env node
/**
 * `toolwire-reference-server [--port N] [--host H] [--conformance] [--dual-era] [--grpc]`: runs the
 * reference server until SIGINT or SIGTERM and prints its endpoint URLs, one per line. `--grpc`
 * also starts MCP-lite's gRPC binding (its module, and the Connect packages, load only then).
 * `--stdio` serves one client on this process's standard streams instead, until stdin ends.
 */
import { parseArgs } from 'node:util';
import { startReferenceServer } from './index.ts';
import type { StdioEra } from './stdio/serve.ts';

const USAGE = `Usage: toolwire-reference-server [--port N] [--host H] [--conformance] [--dual-era]
                                 [--grpc] [--grpc-port N]

  --port N         TCP port to listen on (default 0: any free port)
  --host H         interface to bind (default 127.0.0.1)
  --conformance    also offer the fixtures the MCP conformance suite's server scenarios name
  --dual-era       /mcp and /mcp-json serve MCP 2026-07-28 beside the stateful revisions
                   (--conformance implies it)
  --grpc           also serve MCP-lite's gRPC binding (grpc://), on a port of its own
  --grpc-port N    its TCP port (default 0: any free port; implies --grpc)

       toolwire-reference-server --stdio [--era dual|legacy|modern] [faults]

  --stdio          serve one client on stdin/stdout (logs on stderr) until stdin ends
  --era E          dual (default): initialize opens a legacy session, 2026-07-28 requests are
                   served statelessly; legacy or modern: that era alone
  faults:
  --exit-on-unknown  exit on any request before initialize (some SDKs do)
  --silent-probe     never answer server/discover
  --crash-on TOOL    exit (code 70) when TOOL is called, mid-call
  --huge-line BYTES  before answering tools/list, write a log notification that long
  --garbage          write lines that are not JSON-RPC to stdout
  --ignore-eof       keep running after stdin ends
  --ignore-sigterm   ignore SIGTERM
  --grandchild       start a process that shares stdout and runs until killed
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
    stdio: { type: 'boolean' },
    era: { type: 'string' },
    'exit-on-unknown': { type: 'boolean' },
    'silent-probe': { type: 'boolean' },
    'crash-on': { type: 'string' },
    'huge-line': { type: 'string' },
    garbage: { type: 'boolean' },
    'ignore-eof': { type: 'boolean' },
    'ignore-sigterm': { type: 'boolean' },
    grandchild: { type: 'boolean' },
  },
});

if (values.help === true) {
  process.stdout.write(USAGE);
} else if (values.stdio === true) {
  const era = values.era ?? 'dual';
  if (era !== 'dual' && era !== 'legacy' && era !== 'modern') {
    process.stderr.write(`--era must be dual, legacy or modern, got ${era}\n`);
    process.exit(2);
  }
  // Loaded here: the HTTP server never needs the stdio modules.
  const { runStdio } = await import('./stdio/run.ts');
  runStdio(era as StdioEra, {
    exitOnUnknown: values['exit-on-unknown'] === true,
    silentProbe: values['silent-probe'] === true,
    ...(values['crash-on'] === undefined ? {} : { crashOn: values['crash-on'] }),
    ...(values['huge-line'] === undefined ? {} : { hugeLine: Number(values['huge-line']) }),
    garbage: values.garbage === true,
    ignoreEof: values['ignore-eof'] === true,
    ignoreSigterm: values['ignore-sigterm'] === true,
    grandchild: values.grandchild === true,
  });
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
