/**
 * Skills in a real LangChain agent: two reference servers offer the same skills. The application
 * puts the index in its own system prompt; the fake model asks for a name two servers share
 * (refused with the choices), then for one server's skill, then for its script and a file the
 * skill does not list (refused, never fetched), and answers with what it read.
 */
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createMcpClients, type SkillReading } from '@toolwire/client';
import { mcpSkills } from '@toolwire/langchain';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { createAgent } from 'langchain';
import { expect, test } from 'vitest';
import { posts } from '../reference/helpers.ts';

function reads(server: ReferenceServer): string[] {
  return posts(server, 'resources/read').map(
    (entry) => (entry.body as { params: { uri: string } }).params.uri,
  );
}

function toolMessages(messages: unknown[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

test('the agent reads a skill and its script from the server it names, and answers with them', async () => {
  await using alpha = await startReferenceServer();
  await using beta = await startReferenceServer();
  await using clients = createMcpClients({ alpha: alpha.url, beta: beta.url }, { skills: true });
  const skills = mcpSkills(clients);
  const index = await skills.index();
  expect(index).toContain('- alpha/greeting (server "alpha")');
  expect(index).toContain('- beta/greeting (server "beta")');

  const model = fakeModel()
    .respondWithTools([{ name: 'read_skill', args: { name: 'greeting' }, id: 'c1' }])
    .respondWithTools([{ name: 'read_skill', args: { name: 'alpha/greeting' }, id: 'c2' }])
    .respondWithTools([
      { name: 'read_resource', args: { path: 'scripts/hello.sh' }, id: 'c3' },
      {
        name: 'read_resource',
        args: { path: '../../secrets/key.txt', skill: 'alpha/greeting' },
        id: 'c4',
      },
    ])
    // The answer is made of what the model was shown of the script.
    .respond((messages: BaseMessage[]) => {
      const script = toolMessages(messages).find((message) => message.tool_call_id === 'c3');
      return new AIMessage(`ran: ${String(script?.content)}`);
    });
  const agent = createAgent({ model, tools: skills.tools, systemPrompt: index });
  const { messages } = await agent.invoke({ messages: [new HumanMessage('greet Ada')] });

  const [ambiguous, skill, , climbing] = toolMessages(messages);
  expect(ambiguous?.status).toBe('error');
  expect(ambiguous?.content).toContain('say which: alpha/greeting, beta/greeting');
  expect(skill?.content).toContain('[skill "alpha/greeting" from server "alpha"');
  expect(skill?.content).toContain('Run scripts/hello.sh with the name of the user.');
  // What the skill asks for is in the artifact, for the application; nothing is granted.
  expect((skill!.artifact as SkillReading).allowedTools).toEqual(['echo', 'add']);
  // A path out of the skill is refused by the client's checks, before anything is asked for.
  expect(climbing?.status).toBe('error');
  expect(climbing?.content).toContain('SkillVerificationError');
  expect(String(messages.at(-1)?.content)).toContain('from server "alpha"]');
  expect(String(messages.at(-1)?.content)).toContain('echo "hello, $1"');
  // The system prompt the model was given is the application's, with the index in it.
  expect(JSON.stringify(model.calls[0]?.messages[0]?.content)).toContain('alpha/greeting');

  expect(reads(alpha)).toEqual([
    'skill://reference/greeting/SKILL.md',
    'skill://reference/greeting/scripts/hello.sh',
  ]);
  expect(reads(beta)).toEqual([]);

  // Outside an agent too (a ToolNode, a bound model), a refusal is the tool's error result.
  const direct = (await skills.tools[1]!.invoke({
    name: 'read_resource',
    args: { path: 'extra.txt', skill: 'alpha/greeting' },
    id: 'd1',
    type: 'tool_call',
  })) as ToolMessage;
  expect(direct.status).toBe('error');
  expect(direct.content).toMatch(/^SkillVerificationError: .*unlisted/);
  expect(reads(alpha)).toHaveLength(2);
});
