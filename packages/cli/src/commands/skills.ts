/**
 * `toolwire skills TARGET`: the skills a server offers (SEP-2640), each with the server it came
 * from, its uri, how many files it lists (or "dynamic": nothing to verify them against) and the
 * tools it asks for, flagged: a skill asks, the user decides. Everything a server wrote passes
 * printable()/visible() before it reaches the terminal.
 */
import type { Skill } from '@toolwire/client';
import { EXIT, type ExitCode, UsageError } from '../exit-codes.ts';
import { printable, visible } from '../printable.ts';
import { table } from '../render/table.ts';
import type { Session } from '../session.ts';
import { serverLabel } from './skill.ts';

/** `allowed-tools` of the frontmatter: a space-separated string or a list. */
export function allowedTools(skill: Skill): string[] {
  const value = skill.frontmatter['allowed-tools'];
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  return Array.isArray(value)
    ? value.filter((tool): tool is string => typeof tool === 'string')
    : [];
}

export async function skillsCommand(session: Session, words: readonly string[]): Promise<ExitCode> {
  const { client, terminal, signal } = session;
  if (words.length > 0) throw new UsageError(`skills takes no more words, got ${words.join(' ')}`);
  const server = serverLabel(session);
  const skills = await client.listSkills({ signal });
  const rows = skills.map((skill) => ({
    name: skill.name,
    description: skill.description,
    server,
    uri: skill.uri,
    files: skill.resources === 'dynamic' ? ('dynamic' as const) : skill.resources.length,
    allowedTools: allowedTools(skill),
  }));
  if (terminal.json) {
    terminal.printJson({ server, skills: rows });
    return EXIT.ok;
  }
  if (rows.length === 0) {
    terminal.print('No skills.');
    return EXIT.ok;
  }
  for (const line of table(
    ['NAME', 'SERVER', 'FILES', 'URI', 'ASKS FOR TOOLS', 'DESCRIPTION'],
    rows.map((row) => [
      visible(row.name),
      visible(row.server),
      String(row.files),
      visible(row.uri),
      row.allowedTools.length > 0 ? `! ${visible(row.allowedTools.join(' '))}` : '',
      printable(row.description).replace(/\s+/g, ' '),
    ]),
    terminal.columns,
  )) {
    terminal.print(line);
  }
  if (rows.some((row) => row.allowedTools.length > 0)) {
    terminal.say('! the skill asks for these tools (allowed-tools); nothing is granted by asking');
  }
  return EXIT.ok;
}
