/**
 * The server asks, the application answers: one set of handlers for elicitation, sampling and
 * roots, used unchanged against a legacy session (requests on the call's stream) and a
 * 2026-07-28 endpoint (`input_required` rounds). Runs on the bundled reference server.
 *
 *   node examples/handlers.ts
 */
import { type ClientOptions, createMcpClient } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';

await using server = await startReferenceServer();

const handlers: ClientOptions = {
  // A form: fill it in (here, from a canned answer); fields left out get the form's defaults.
  // A URL: show it whole and ask the user before opening it; the library never opens it.
  onElicitation: async (request, { server }) => {
    if (request.mode === 'url') {
      console.log(`  ${server.name} asks to open ${new URL(request.url).host}: ${request.message}`);
      return { action: 'accept' };
    }
    console.log(`  ${server.name} asks: ${request.message}`);
    return { action: 'accept', content: { name: 'Ada' } };
  },
  // A completion from the application's model (a canned one here).
  onSampling: async (request) => {
    const [first] = request.messages;
    const text = first && !Array.isArray(first.content) ? first.content : undefined;
    console.log(`  the server wants a completion of ${JSON.stringify(text)}`);
    return { role: 'assistant', content: { type: 'text', text: 'Hi!' }, model: 'example-model' };
  },
  roots: [{ uri: 'file:///home/ada/project', name: 'project' }],
};

for (const [era, url] of [
  ['legacy session', server.urls.stateful],
  ['2026-07-28', server.urls.modern],
] as const) {
  await using client = createMcpClient(url, handlers);
  console.log(`\n${era}`);
  const survey = await client.callTool('survey');
  console.log(`  survey   → ${JSON.stringify(survey.structuredContent)}`);
  const link = await client.callTool('elicit_url', { completeAfterMs: 100 });
  console.log(`  URL flow → ${JSON.stringify(link.structuredContent)}`);
  console.log(`  (spoken at ${client.protocolVersion})`);
}
