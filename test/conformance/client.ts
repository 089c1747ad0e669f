/**
 * The client under test for the conformance suite's client scenarios. The suite runs
 * `<command> <server url>` with MCP_CONFORMANCE_SCENARIO naming the scenario, and on the 0.2 line
 * MCP_CONFORMANCE_PROTOCOL_VERSION naming the revision the scenario speaks; it grades what arrives
 * on the wire, and also fails the scenario when this process exits non-zero.
 *
 *   node test/conformance/client.ts http://localhost:PORT/mcp
 */
import { type ClientOptions, createMcpClient, isMcpError, type JsonObject } from '@toolwire/client';
import { authFor, handlerFor } from './client-scenarios.ts';

/** Shorter than the suite's own timeout, so a stuck call ends in a TimeoutError, not a kill. */
const CALL_TIMEOUT_MS = 10_000;

const scenario = process.env['MCP_CONFORMANCE_SCENARIO'];
const url = process.argv.at(-1);
const handler = scenario === undefined ? undefined : handlerFor(scenario);

if (scenario === undefined || url === undefined || process.argv.length < 3) {
  process.stderr.write('usage: MCP_CONFORMANCE_SCENARIO=<scenario> client.ts <server url>\n');
  process.exit(2);
}
if (handler === undefined) {
  // A scenario new to the suite must fail loudly rather than pass by doing nothing.
  process.stderr.write(`no handler for scenario ${scenario}: teach client-scenarios.ts\n`);
  process.exit(2);
}

// The revision the scenario is run at (0.2 line only; the stable line leaves the choice to the
// client). The client checks it and throws a TypeError naming the option for one it does not
// speak, so the cast only moves that check to run time.
const protocolVersion = process.env['MCP_CONFORMANCE_PROTOCOL_VERSION'] as
  | ClientOptions['protocolVersion']
  | undefined;
// Data some scenarios hand their client: tool calls to make, or OAuth credentials.
const context = JSON.parse(process.env['MCP_CONFORMANCE_CONTEXT'] ?? '{}') as JsonObject;
const auth = authFor(scenario, context);

try {
  await using client = createMcpClient(url, {
    timeoutMs: CALL_TIMEOUT_MS,
    // What an application with no user at the keyboard would answer: forms accepted as they come
    // (the client fills in the form's defaults), URLs declined, a canned model, one root.
    onElicitation: (request) =>
      request.mode === 'form' ? { action: 'accept', content: {} } : { action: 'decline' },
    onSampling: () => ({
      role: 'assistant',
      content: { type: 'text', text: 'conformance' },
      model: 'toolwire-conformance',
    }),
    roots: [{ uri: 'file:///conformance', name: 'conformance' }],
    ...(protocolVersion === undefined ? {} : { protocolVersion }),
    ...(auth === undefined ? {} : { auth }),
  });
  client.on('warning', (error) => process.stderr.write(`warning: ${describe(error)}\n`));
  await handler(client, context);
} catch (error) {
  process.stderr.write(`${scenario} failed: ${describe(error)}\n`);
  process.exit(1);
}
process.exit(0);

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = isMcpError(error) ? ` ${error.code}` : '';
  const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : '';
  return `${error.name}${code}: ${error.message}${cause}`;
}
