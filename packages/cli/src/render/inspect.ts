/**
 * What `inspect` learns about a server, as one JSON document and as the text a person reads: how
 * the connection was negotiated, who the server says it is, what it can do, and tables of its
 * tools, resources, templates and prompts.
 */
import type {
  JsonObject,
  McpClient,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
} from '@toolwire/client';
import { printable, visible } from '../printable.ts';
import type { Terminal } from '../terminal.ts';
import type { ToolCost } from '../tool-tokens.ts';
import { cut, oneLine, table, wrap } from './table.ts';

export interface Inspection {
  target: string;
  /** How the client reaches the server: HTTP, or the pipes of a process it started. */
  transport: 'http' | 'stdio';
  dialect: string;
  protocolVersion: string;
  negotiation: string;
  serverInfo: JsonObject;
  instructions?: string;
  capabilities: JsonObject;
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
  /** Lists the server could not give, and why. */
  problems?: Record<string, string>;
  /** With `--tokens`: what the tools' definitions cost a model. */
  tokens?: ToolCost;
}

const DIALECT_NAMES: Record<string, string> = {
  'mcp-stateless': 'MCP, stateless',
  'mcp-stateful': 'MCP, with a session',
  'mcp-sse': 'MCP, the deprecated HTTP+SSE transport',
  'mcp-lite': 'MCP-lite',
  webtools: 'Webtools',
};

/** Everything `inspect` shows, asked of a connected client. */
export async function inspect(
  client: McpClient,
  target: string,
  transport: Inspection['transport'],
  protocol: string,
  signal: AbortSignal,
): Promise<Inspection> {
  const capabilities = client.serverCapabilities ?? {};
  const problems: Record<string, string> = {};
  // A list the server does not offer is empty; one that fails is reported, not fatal.
  const list = async <T>(name: string, offered: boolean, run: () => Promise<T[]>) => {
    if (!offered) return [];
    try {
      return await run();
    } catch (error) {
      if (signal.aborted) throw error;
      problems[name] = (error as Error).message;
      return [];
    }
  };
  const tools = await client.listTools({ signal });
  const hasResources = capabilities['resources'] !== undefined;
  const resources = await list('resources', hasResources, () => client.listResources({ signal }));
  const resourceTemplates = await list('resourceTemplates', hasResources, () =>
    client.listResourceTemplates({ signal }),
  );
  const prompts = await list('prompts', capabilities['prompts'] !== undefined, () =>
    client.listPrompts({ signal }),
  );
  const dialect = client.dialect ?? 'unknown';
  const protocolVersion = client.protocolVersion ?? 'unknown';
  return {
    target,
    transport,
    dialect,
    protocolVersion,
    negotiation: negotiation(dialect, protocolVersion, protocol),
    serverInfo: { ...(client.serverInfo ?? {}) },
    ...(client.instructions ? { instructions: client.instructions } : {}),
    capabilities,
    tools,
    resources,
    resourceTemplates,
    prompts,
    ...(Object.keys(problems).length > 0 ? { problems } : {}),
  };
}

/** How the client came to speak this dialect and revision. */
function negotiation(dialect: string, version: string, protocol: string): string {
  if (protocol !== 'auto') return `pinned with --protocol ${protocol}`;
  switch (dialect) {
    case 'mcp-stateless':
      return `server/discover answered; ${version} is the newest revision both sides speak`;
    case 'mcp-stateful':
      return `server/discover was not understood; initialize agreed on ${version}`;
    case 'mcp-sse':
      return 'POST was refused; the GET event stream named the endpoint to post to';
    case 'mcp-lite':
      return 'MCP probes were refused; the MCP-lite tool listing answered';
    case 'webtools':
      return "the POST got a Webtools envelope; the webtool's metadata came from GET";
    default:
      return 'found by probing';
  }
}

export function printInspection(found: Inspection, terminal: Terminal): void {
  const width = terminal.columns;
  const indent = ' '.repeat(14);
  // Cleaned before the layout, so that widths count what is shown; names show what they hide.
  const line = (label: string, text: string) => {
    const [first = '', ...more] = wrap(printable(text), width - indent.length, indent);
    terminal.print(terminal.out('bold', label.padEnd(14)), first);
    for (const next of more) terminal.print(next);
  };
  const cell = (text: string | undefined) => oneLine(printable(text ?? ''));
  const name = (text: unknown) => visible(String(text ?? ''));
  const info = found.serverInfo;
  const title = typeof info['title'] === 'string' ? ` (${cell(info['title'])})` : '';
  line('server', `${name(info['name'])} ${name(info['version'])}${title}`);
  line('at', found.target);
  const over = found.transport === 'stdio' ? 'stdio (a local process)' : 'HTTP';
  line('dialect', `${DIALECT_NAMES[found.dialect] ?? name(found.dialect)}, over ${over}`);
  line('revision', name(found.protocolVersion));
  line('negotiated', found.negotiation);
  line('capabilities', describeCapabilities(found.capabilities) || 'none');
  if (found.instructions) line('instructions', found.instructions);
  const section = (title: string, count: number, header: string[], rows: string[][]) => {
    terminal.print();
    terminal.print(terminal.out('bold', `${title} (${count})`));
    if (count > 0) {
      const [head = '', ...body] = table(header, rows, width);
      terminal.print(terminal.out('dim', head));
      for (const line of body) terminal.print(line);
    }
  };
  const cost = found.tokens;
  section(
    'tools',
    found.tools.length,
    [
      'NAME',
      'TITLE',
      'HINTS',
      'OUTPUT',
      'TASK',
      ...(cost ? ['TOKENS', 'SLIM'] : []),
      'DESCRIPTION',
    ],
    found.tools.map((tool, index) => [
      name(tool.name),
      cell(tool.title ?? tool.annotations?.title),
      hints(tool),
      tool.outputSchema ? 'schema' : '',
      taskSupport(tool),
      ...(cost
        ? [String(cost.tools[index]?.tokens ?? ''), String(cost.tools[index]?.slim ?? '')]
        : []),
      cell(tool.description),
    ]),
  );
  if (cost) {
    terminal.print(
      `  ${cost.total} tokens in all (${cost.tokenizer}); ${cost.slimTotal} with slim: true`,
    );
  }
  section(
    'resources',
    found.resources.length,
    ['URI', 'NAME', 'TYPE', 'DESCRIPTION'],
    found.resources.map((resource) => [
      name(resource.uri),
      cell(resource.title ?? resource.name),
      name(resource.mimeType ?? ''),
      cell(resource.description),
    ]),
  );
  section(
    'resource templates',
    found.resourceTemplates.length,
    ['URI TEMPLATE', 'NAME', 'TYPE', 'DESCRIPTION'],
    found.resourceTemplates.map((template) => [
      name(template.uriTemplate),
      cell(template.title ?? template.name),
      name(template.mimeType ?? ''),
      cell(template.description),
    ]),
  );
  section(
    'prompts',
    found.prompts.length,
    ['NAME', 'ARGUMENTS', 'DESCRIPTION'],
    found.prompts.map((prompt) => [
      name(prompt.name),
      (prompt.arguments ?? [])
        .map((arg) => `${name(arg.name)}${arg.required ? '*' : ''}`)
        .join(' '),
      cell(prompt.description),
    ]),
  );
  for (const [list, problem] of Object.entries(found.problems ?? {})) {
    terminal.say(terminal.err('yellow', `could not list ${list}: ${cut(printable(problem), 200)}`));
  }
}

/** `tools (listChanged), resources (subscribe, listChanged), logging`. */
export function describeCapabilities(capabilities: JsonObject): string {
  return Object.entries(capabilities)
    .map(([name, value]) => {
      const parts =
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? Object.entries(value)
              .filter(([, on]) => on !== false && on !== null)
              .map(([key]) => key)
          : [];
      // The server names its capabilities: written out like any name.
      const shown = visible(name);
      return parts.length > 0 ? `${shown} (${parts.map(visible).join(', ')})` : shown;
    })
    .join(', ');
}

function hints(tool: Tool): string {
  const annotations = tool.annotations ?? {};
  const words: string[] = [];
  if (annotations.readOnlyHint) words.push('read-only');
  if (annotations.destructiveHint && !annotations.readOnlyHint) words.push('destructive');
  if (annotations.idempotentHint) words.push('idempotent');
  if (annotations.openWorldHint) words.push('open-world');
  return words.join(' ');
}

function taskSupport(tool: Tool): string {
  const support = tool.execution?.['taskSupport'];
  return typeof support === 'string' && support !== 'forbidden' ? support : '';
}
