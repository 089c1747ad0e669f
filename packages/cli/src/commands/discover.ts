/**
 * `toolwire discover DOMAIN`: the MCP servers a domain publishes (its AI Catalog, then its older
 * well-known card), each with how to reach it; what was skipped goes to stderr, with why.
 */
import type { Discovery } from '@toolwire/client';
import { EXIT, type ExitCode, UsageError } from '../exit-codes.ts';
import type { Terminal } from '../terminal.ts';

export async function discoverCommand(words: string[], terminal: Terminal): Promise<ExitCode> {
  const [domain, ...rest] = words;
  if (domain === undefined) throw new UsageError('name a domain: toolwire discover example.com');
  if (rest.length > 0) throw new UsageError(`discover takes one domain, got ${words.join(' ')}`);
  const { discoverServers } = await import('@toolwire/client');
  let found: Discovery;
  try {
    found = await discoverServers(domain);
  } catch (error) {
    if (error instanceof TypeError) throw new UsageError(error.message);
    throw error;
  }
  if (terminal.json) {
    terminal.printJson(found);
    return EXIT.ok;
  }
  if (found.servers.length === 0) terminal.say(`${found.origin} publishes no MCP server`);
  for (const { card, displayName, description, via } of found.servers) {
    terminal.print(
      displayName,
      card.version ? ` ${card.version}` : '',
      `  (${card.name}, from the ${via})`,
    );
    if (description) terminal.print('  ', description);
    for (const remote of card.remotes ?? []) terminal.print('  ', remote.type, ' ', remote.url);
    for (const pkg of card.packages ?? []) {
      terminal.print(
        '  ',
        pkg.registryType,
        ' ',
        pkg.identifier,
        pkg.version ? `@${pkg.version}` : '',
      );
    }
  }
  for (const skipped of found.skipped) terminal.say(`skipped ${skipped.where}: ${skipped.reason}`);
  return EXIT.ok;
}
