/**
 * Skills across servers (`createMcpClients`): two reference servers offer the same skills (the
 * same names, the same uris). Both are listed, each tagged with the name the application gave
 * its server, and every read of a loaded skill goes to the server that listed it.
 */
import { createMcpClients } from '@toolwire/client';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { expect, test } from 'vitest';
import { posts } from '../reference/helpers.ts';

const GREETING = 'skill://reference/greeting/SKILL.md';

function reads(server: ReferenceServer): string[] {
  return posts(server, 'resources/read').map(
    (entry) => (entry.body as { params: { uri: string } }).params.uri,
  );
}

test('two servers with the same skill: both listed under their labels, never one for the other', async () => {
  await using alpha = await startReferenceServer();
  await using beta = await startReferenceServer();
  await using clients = createMcpClients(
    { alpha: alpha.url, beta: beta.urls.modern },
    { skills: true },
  );
  const skills = await clients.listSkills();
  const greetings = skills.filter((skill) => skill.name === 'greeting');
  // The labels the application gave, not serverInfo.name (both servers call themselves the same).
  expect(greetings.map((skill) => [skill.server, skill.uri])).toEqual([
    ['alpha', GREETING],
    ['beta', GREETING],
  ]);
  expect(await clients.listSkills()).toEqual(skills);

  const fromBeta = await clients.loadSkill(greetings[1]!);
  expect(fromBeta.server).toBe('beta');
  expect(fromBeta.skill).toBe(greetings[1]);
  const script = await fromBeta.readFile(fromBeta.files[0]!);
  expect(script.verified).toBe(true);
  expect(reads(beta)).toEqual([GREETING, script.uri]);
  expect(reads(alpha)).toEqual([]);

  const fromAlpha = await clients.loadSkill(greetings[0]!);
  expect(fromAlpha.server).toBe('alpha');
  expect(reads(alpha)).toEqual([GREETING]);
  expect(reads(beta)).toHaveLength(2);
});

test('a uri alone: refused where two servers list it, routed by { server }', async () => {
  await using alpha = await startReferenceServer();
  await using beta = await startReferenceServer();
  await using clients = createMcpClients({ alpha: alpha.url, beta: beta.url }, { skills: true });
  await clients.listSkills();
  await expect(clients.loadSkill(GREETING)).rejects.toThrow(/alpha, beta/);
  const loaded = await clients.loadSkill(GREETING, { server: 'beta' });
  expect(loaded.server).toBe('beta');
  expect(loaded.skill.server).toBe('beta');
  expect(reads(alpha)).toEqual([]);
  // An entry another set of servers listed (or a copy) is not one of these servers'.
  await expect(clients.loadSkill({ ...loaded.skill })).rejects.toThrow(TypeError);
});

test('without skills on any server, listSkills is a usage error and no server is marked down', async () => {
  await using alpha = await startReferenceServer();
  await using clients = createMcpClients({ alpha: alpha.url });
  await expect(clients.listSkills()).rejects.toThrow(TypeError);
  expect(clients.status()['alpha']).not.toBe('down');
});
