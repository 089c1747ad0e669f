/**
 * What README snippets leave to the reader: the server's URL, a model, the application's own
 * interface and storage. Each is a small working stand-in, so a snippet runs as printed against
 * the bundled reference server; the snippet test imports only the names a snippet uses and does
 * not declare. `url` is the server the test started; `client`, `github` and `jira` are clients
 * of it, opened on first use and closed by `finish()`.
 */
import { AIMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import {
  type CallHandle,
  type ContentBlock,
  createMcpClient,
  type McpClient,
  type RequestedSchema,
  type Root,
  type SamplingContent,
} from '@toolwire/client';
import type { ModelMessage } from 'ai';
import { ScriptedModel } from '../adapter-ai-sdk/model.ts';

const serverUrl = process.env['TOOLWIRE_SNIPPET_URL'];
if (!serverUrl) throw new Error('TOOLWIRE_SNIPPET_URL names the server snippets run against');

/** The server a snippet talks to: the reference server's stateful endpoint. */
export const url: string = serverUrl;

const opened: McpClient[] = [];
function opening(): McpClient {
  const made = createMcpClient(url);
  opened.push(made);
  return made;
}

/** A client the snippet did not create itself. */
export const client: McpClient = opening();
/** Two more clients, for snippets that combine servers. */
export const github: McpClient = opening();
export const jira: McpClient = opening();

/** An AI SDK model: calls `add` with 2 and 40 when it is offered, then answers. */
export const aiModel = new ScriptedModel([
  { calls: [{ tool: 'add', input: { a: 2, b: 40 } }] },
  { text: '2 + 40 is 42.' },
  { text: 'Nothing more to do.' },
]);

/** A LangChain chat model that answers in text. */
export const chatModel = fakeModel()
  .respond(new AIMessage('2 + 40 is 42.'))
  .respond(new AIMessage('Done.'))
  .respond(new AIMessage('Done.'));

/** The conversation so far, for snippets that pass `messages`. */
export const messages: ModelMessage[] = [{ role: 'user', content: 'What is 2 + 40?' }];

/** Asks the user a yes/no question; this user agrees. */
export async function askUser(
  question: string,
  _options: { signal: AbortSignal },
): Promise<boolean> {
  console.log(`asked: ${question}`);
  return true;
}

/** Shows a form; this user fills in the first field with "Ada". */
export async function showForm(
  message: string,
  schema: RequestedSchema,
  _options: { signal: AbortSignal },
): Promise<Record<string, string> | undefined> {
  console.log(`form: ${message}`);
  const [field] = Object.keys(schema.properties);
  return field === undefined ? {} : { [field]: 'Ada' };
}

/** The application's own model, for sampling. */
export const myModel = {
  async generate(_request: {
    messages: unknown;
    systemPrompt?: string | undefined;
    maxTokens: number;
    tools?: unknown;
    signal: AbortSignal;
  }): Promise<{ content: SamplingContent; modelId: string }> {
    return { content: { type: 'text', text: 'Hi!' }, modelId: 'stand-in' };
  },
};

/** The application's open folders. */
export const workspace = {
  folders: (): Root[] => [{ uri: 'file:///home/ada/project', name: 'project' }],
};

/** The application's database of call handles. */
const stored = new Map<string, CallHandle>();
export const db = {
  put: async (id: string, handle: CallHandle): Promise<void> => void stored.set(id, handle),
  del: async (id: string): Promise<void> => void stored.delete(id),
  all: async (): Promise<CallHandle[]> => [...stored.values()],
};

/** Opens a page in the user's browser; this user is not there, and nothing opens. */
export function openBrowser(href: string): void {
  console.log(`would open ${new URL(href).host}`);
}

/** The application's interface. */
export function render(content: ContentBlock[]): void {
  console.log(`partial: ${content.map((block) => block.type).join(', ')}`);
}
export function showBar(status: unknown): void {
  console.log(`status: ${JSON.stringify(status)}`);
}
export function done(result: unknown): void {
  console.log(`result: ${JSON.stringify(result).slice(0, 80)}`);
}

/** Closes what the stand-ins opened. */
export async function finish(): Promise<void> {
  await Promise.all(opened.map((each) => each.close()));
}
