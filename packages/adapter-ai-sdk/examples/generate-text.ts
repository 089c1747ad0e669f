/**
 * The drop-in: the server's tools in a generateText loop. Run it from the repository root with
 * `node packages/adapter-ai-sdk/examples/generate-text.ts`.
 */
import { mcpTools } from '@toolwire/ai-sdk';
import { createMcpClient } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { generateText, stepCountIs } from 'ai';
import { standInModel } from './stand-in-model.ts';

await using server = await startReferenceServer();
await using client = createMcpClient(server.url);

const result = await generateText({
  model: standInModel(
    { call: { add: { a: 2, b: 40 }, media: {} } },
    { call: { add: { a: 'two', b: 40 } } },
    { say: 'The sum is 42.' },
  ),
  tools: await mcpTools(client),
  prompt: 'What is 2 + 40? And show me some media.',
  stopWhen: stepCountIs(5),
});

for (const step of result.steps) {
  for (const part of step.content) {
    if (part.type === 'tool-result') {
      const kinds = (part.output as { content: Array<{ type: string }> }).content.map(
        (b) => b.type,
      );
      console.log(`tool-result ${part.toolName}: ${kinds.join(', ')}`);
    }
    // An argument that breaks the server's schema never reaches the server: the model is told.
    if (part.type === 'tool-error') console.log(`tool-error  ${part.toolName}: ${part.error}`);
  }
}
console.log(`text        ${result.text}`);
