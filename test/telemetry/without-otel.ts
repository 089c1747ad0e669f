/**
 * A worker in an application without `@opentelemetry/api` (see hide-otel.ts): imports the client,
 * makes one call, and prints how often OpenTelemetry was looked for at each point.
 */
const [url, tracing] = process.argv.slice(2);
const lookups = () => (globalThis as { otelLookups?: number }).otelLookups;

const { createMcpClient } = await import('@toolwire/client');
const afterImport = lookups();
await using client = createMcpClient(url!, { tracing: tracing === 'on', listen: false });
const warnings: string[] = [];
client.on('warning', (error) => warnings.push(error.message));
const result = await client.callTool('echo', { text: 'untraced' });
await client.callTool('echo', { text: 'again' });
process.stdout.write(
  `${JSON.stringify({ afterImport, afterCalls: lookups(), warnings, content: result.content })}\n`,
);
