/** The client sends through one undici dispatcher: its own pooled Agent, or one the caller injects. */
import { createMcpClient } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { Agent, type Dispatcher } from 'undici';
import { expect, test } from 'vitest';

test('an injected dispatcher carries every request and is left open by close()', async () => {
  await using server = await startReferenceServer();
  const agent = new Agent();
  const methods: string[] = [];
  const counting = agent.compose(
    (dispatch) => (options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => {
      methods.push(options.method);
      return dispatch(options, handler);
    },
  );
  const client = createMcpClient(server.url, { dispatcher: counting });
  await client.callTool('echo', { text: 'through the injected dispatcher' });
  await client.close();
  expect(methods).toEqual(expect.arrayContaining(['POST', 'GET', 'DELETE']));
  expect(methods.length).toBe(server.log.length);
  // Still usable: the caller owns it.
  expect(agent.closed).toBe(false);
  await agent.close();
});
