/**
 * A worker in an application without `@opentelemetry/api` (see hide-otel.ts): imports the client,
 * makes one call, and prints how often OpenTelemetry was looked for at each point. `registered`
 * is tracing on in a process where another copy of the API registered its globals.
 */
const [url, tracing] = process.argv.slice(2);
if (tracing === 'registered') {
  (globalThis as Record<symbol, unknown>)[Symbol.for('opentelemetry.js.api.1')] = {
    version: '1.9.0',
  };
}
const lookups = () => (globalThis as { otelLookups?: number }).otelLookups;

const { createMcpClient } = await import('@toolwire/client');
const afterImport = lookups();
await using client = createMcpClient(url!, { tracing: tracing !== 'off', listen: false });
const warnings: string[] = [];
client.on('warning', (error) => warnings.push(error.message));
const result = await client.callTool('echo', { text: 'untraced' });
await client.callTool('echo', { text: 'again' });
process.stdout.write(
  `${JSON.stringify({ afterImport, afterCalls: lookups(), warnings, content: result.content })}\n`,
);
