/**
 * What the client under test does in each client scenario of the conformance suite. Each
 * scenario's test server expects a particular exchange (its source is src/scenarios/client/ in
 * the suite's repository); a handler performs it with the public API of `@toolwire/client` and
 * nothing else, so a failure is the client's, not a shortcut's.
 */
import type { JsonObject, McpClient, OAuthOptions } from '@toolwire/client';

/**
 * Does what one scenario expects. `context` is MCP_CONFORMANCE_CONTEXT, the data a scenario hands
 * its client (tool calls to make, OAuth credentials), or an empty object.
 */
export type ScenarioHandler = (client: McpClient, context: JsonObject) => Promise<void>;

/** Lists tools and calls the one the scenario names, with the arguments it expects. */
function callNamedTool(name: string, args: JsonObject = {}): ScenarioHandler {
  return async (client) => {
    await client.listTools();
    await client.callTool(name, args);
  };
}

/** Lists tools and nothing else: the scenario judges what the client does with the listing. */
const listToolsOnly: ScenarioHandler = async (client) => {
  await client.listTools();
};

/** Every tool called, resource read and prompt got: for scenarios that watch each request. */
const exerciseEverything: ScenarioHandler = async (client) => {
  for (const tool of await client.listTools()) await client.callTool(tool.name);
  const capabilities = client.serverCapabilities ?? {};
  if (capabilities['resources'] !== undefined) {
    for (const resource of await client.listResources()) await client.readResource(resource.uri);
  }
  if (capabilities['prompts'] !== undefined) {
    for (const prompt of await client.listPrompts()) await client.getPrompt(prompt.name);
  }
};

/**
 * The SEP-1613 preservation check: the scenario diffs the schema it gets back against the one it
 * advertised, so the observed inputSchema is sent back unchanged.
 */
const echoObservedSchema: ScenarioHandler = async (client) => {
  const tools = await client.listTools();
  const focal = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
  if (focal === undefined)
    throw new Error('the scenario did not advertise json_schema_2020_12_tool');
  await client.callTool('json_schema_echo', { schema: focal.inputSchema });
};

/**
 * The calls the scenario names in its context, with its arguments: http-custom-headers grades the
 * `Mcp-Param-*` headers they produce (null arguments, unusual characters and all).
 */
const callToolsFromContext: ScenarioHandler = async (client, context) => {
  await client.listTools();
  const calls = Array.isArray(context['toolCalls']) ? context['toolCalls'] : [];
  for (const call of calls as Array<{ name: string; arguments?: JsonObject }>) {
    await client.callTool(call.name, call.arguments ?? {});
  }
};

/** An OAuth-protected server: the flow the auth scenarios grade starts with the first request. */
const authenticatedCall: ScenarioHandler = async (client) => {
  const tools = await client.listTools();
  if (tools.some((tool) => tool.name === 'test-tool')) await client.callTool('test-tool');
};

const HANDLERS = new Map<string, ScenarioHandler>([
  ['initialize', listToolsOnly],
  ['tools_call', callNamedTool('add_numbers', { a: 2, b: 3 })],
  ['elicitation-sep1034-client-defaults', callNamedTool('test_client_elicitation_defaults')],
  // The server closes the call's stream after a priming event with `retry:`; the answer comes
  // on the GET the client must resume with.
  ['sse-retry', callNamedTool('test_reconnection')],
  ['json-schema-2020-12-preservation', echoObservedSchema],
  ['json-schema-ref-no-deref', listToolsOnly],
  ['request-metadata', listToolsOnly],
  ['http-standard-headers', exerciseEverything],
  ['http-custom-headers', callToolsFromContext],
  ['http-invalid-tool-headers', exerciseEverything],
  ['sep-2322-client-request-state', exerciseEverything],
]);

/**
 * The client's Client ID Metadata Document URL. The suite's authorization server takes it as it
 * is, without fetching it; an application would serve its own.
 */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/**
 * The `auth` option for an auth scenario: what an application would configure, from the data the
 * scenario hands its client. Interactive by default (the authorization URL is opened headlessly,
 * as a browser that is already logged in would: see `headlessAuthorize`), a machine grant where
 * the scenario gives machine credentials.
 */
export function authFor(scenario: string, context: JsonObject): OAuthOptions | undefined {
  if (!scenario.startsWith('auth/')) return undefined;
  const text = (key: string) => (typeof context[key] === 'string' ? context[key] : undefined);
  const clientId = text('client_id');
  const clientSecret = text('client_secret');
  const client =
    clientId === undefined ? undefined : { clientId, ...(clientSecret ? { clientSecret } : {}) };
  const idToken = text('idp_id_token');
  if (idToken !== undefined && client) {
    return {
      client,
      grant: {
        type: 'enterprise',
        idp: {
          tokenEndpoint: text('idp_token_endpoint') ?? '',
          clientId: text('idp_client_id') ?? '',
          ...(text('idp_issuer') === undefined ? {} : { issuer: text('idp_issuer') as string }),
          idToken,
        },
      },
    };
  }
  const workloadJwt = text('valid_jwt');
  if (workloadJwt !== undefined && client) {
    return { client, grant: { type: 'jwt_bearer', assertion: workloadJwt } };
  }
  const privateKey = text('private_key_pem');
  if (privateKey !== undefined && client) {
    return {
      client: { ...client, privateKey, signingAlgorithm: text('signing_algorithm') ?? 'ES256' },
      grant: { type: 'client_credentials' },
    };
  }
  if (scenario.startsWith('auth/client-credentials') && client) {
    return { client, grant: { type: 'client_credentials' } };
  }
  return {
    ...(client ? { client } : {}),
    clientMetadataUrl: CLIENT_METADATA_URL,
    redirectUri: 'http://127.0.0.1:3939/callback',
    authorize: headlessAuthorize,
  };
}

/**
 * The user's side of an authorization, with no browser: the suite's authorization endpoint answers
 * at once with a redirect to the redirect URI, so the URL is fetched without following redirects
 * and the redirect it names is handed back, as a browser would deliver it to the loopback listener.
 */
async function headlessAuthorize(url: URL, { signal }: { signal: AbortSignal }): Promise<string> {
  const response = await fetch(url, { redirect: 'manual', signal });
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (!location)
    throw new Error(`the authorization endpoint answered ${response.status}, no redirect`);
  return new URL(location, url).href;
}

/** The handler for a scenario, or undefined when this client has not been taught it. */
export function handlerFor(scenario: string): ScenarioHandler | undefined {
  if (scenario.startsWith('auth/')) return authenticatedCall;
  return HANDLERS.get(scenario);
}
