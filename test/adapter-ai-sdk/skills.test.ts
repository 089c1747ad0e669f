/**
 * Skills in a real AI SDK loop: two reference servers offer the same skills. The application puts
 * the index in its own prompt; the scripted model asks for a name two servers share (refused with
 * the choices), then for one server's skill, then for its script and a file the skill does not
 * list (refused, never fetched), and answers with what it read.
 */
import { mcpSkills } from '@toolwire/ai-sdk';
import { createMcpClients } from '@toolwire/client';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { generateText, stepCountIs } from 'ai';
import { expect, test } from 'vitest';
import { posts } from '../reference/helpers.ts';
import { ScriptedModel, type Step } from './model.ts';

function reads(server: ReferenceServer): string[] {
  return posts(server, 'resources/read').map(
    (entry) => (entry.body as { params: { uri: string } }).params.uri,
  );
}

test('the model reads a skill and its script from the server it names, and answers with them', async () => {
  await using alpha = await startReferenceServer();
  await using beta = await startReferenceServer();
  await using clients = createMcpClients({ alpha: alpha.url, beta: beta.url }, { skills: true });
  const skills = mcpSkills(clients);

  const index = await skills.index();
  expect(index).toContain('- alpha/greeting (server "alpha"): Greets the user by name');
  expect(index).toContain('- beta/greeting (server "beta"): Greets the user by name');
  // Dynamic skills are left out unless the application allows them.
  expect(index).not.toContain('live');

  let model: ScriptedModel;
  const script: Step[] = [
    { calls: [{ tool: 'read_skill', input: { name: 'greeting' } }] },
    { calls: [{ tool: 'read_skill', input: { name: 'beta/greeting' } }] },
    {
      calls: [
        { tool: 'read_resource', input: { path: 'scripts/hello.sh' } },
        { tool: 'read_resource', input: { path: 'extra.txt', skill: 'beta/greeting' } },
      ],
    },
    {
      // The answer is made of what the model was shown of the script.
      get text() {
        const seen = [...model.outputsSeen(4).values()].map((output) => JSON.stringify(output));
        return `ran: ${seen.find((output) => output.includes('hello, $1')) ?? 'nothing'}`;
      },
    },
  ];
  model = new ScriptedModel(script);
  const result = await generateText({
    model,
    system: `You may use these skills.\n${index}`,
    tools: skills.tools,
    prompt: 'greet Ada',
    stopWhen: stepCountIs(6),
  });

  // The bare name two servers share is refused, naming both choices.
  expect(JSON.stringify(model.outputsSeen(2).get('call-1-1'))).toContain(
    'say which: alpha/greeting, beta/greeting',
  );
  const skillOutput = JSON.stringify(model.outputsSeen(3).get('call-2-1'));
  expect(skillOutput).toContain('[skill \\"beta/greeting\\" from server \\"beta\\"');
  expect(skillOutput).toContain('Run scripts/hello.sh with the name of the user.');
  // What the skill asks for is reported to the application, and granted by no one.
  const read = result.steps[1]!.toolResults[0]!.output as { allowedTools: string[] };
  expect(read.allowedTools).toEqual(['echo', 'add']);
  expect(JSON.stringify(model.outputsSeen(4).get('call-3-2'))).toContain('does not list');
  expect(result.text).toContain('echo \\"hello, $1\\"');
  expect(result.text).toContain('from server \\"beta\\"');

  // Every read went to beta, the server the skill came from; the unlisted file was never asked for.
  expect(reads(beta)).toEqual([
    'skill://reference/greeting/SKILL.md',
    'skill://reference/greeting/scripts/hello.sh',
  ]);
  expect(reads(alpha)).toEqual([]);
});
