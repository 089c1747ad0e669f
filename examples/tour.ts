/**
 * `npm start`: the main job, with no set-up. Starts the bundled reference server on a free
 * loopback port, connects with `createMcpClient(url)`, prints what was negotiated and the tools
 * the server offers, calls one with progress shown and one that runs as a task, and exits.
 */
import { createMcpClient } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';

await using server = await startReferenceServer();
await using client = createMcpClient(server.url);

const tools = await client.listTools();
console.log(`server     ${client.serverInfo?.name} ${client.serverInfo?.version} at ${server.url}`);
console.log(`dialect    ${client.dialect}, protocol revision ${client.protocolVersion}`);
console.log(`\n${tools.length} tools:`);
const width = Math.max(...tools.map((tool) => tool.name.length));
for (const tool of tools) console.log(`  ${tool.name.padEnd(width)}  ${tool.description ?? ''}`);

console.log('\ncalling progress { steps: 5 }');
const result = await client.callTool(
  'progress',
  { steps: 5, delayMs: 100 },
  {
    onProgress: ({ progress, total, message }) => {
      const done = Math.round((progress / (total ?? progress)) * 20);
      console.log(
        `  [${'#'.repeat(done).padEnd(20)}] ${progress}/${total ?? '?'} ${message ?? ''}`,
      );
    },
  },
);
for (const block of result.content)
  if (block.type === 'text') console.log(`result     ${block.text}`);

// A call the server takes on as a task: the client waits for it by itself.
console.log('\ncalling slow_task { ms: 600 } as a task');
const long = await client.callTool(
  'slow_task',
  { ms: 600, text: 'the long way round', pollIntervalMs: 150 },
  {
    task: true,
    onStatus: ({ state, message }) => console.log(`  ${state}${message ? `: ${message}` : ''}`),
  },
);
for (const block of long.content)
  if (block.type === 'text') console.log(`result     ${block.text}`);
