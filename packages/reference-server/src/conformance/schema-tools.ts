/**
 * Conformance tool for scenario json-schema-2020-12 (SEP-1613, SEP-2106): its input schema uses
 * the 2020-12 vocabulary a server must pass through tools/list untouched ($schema, $defs with an
 * $anchor, $ref, allOf/anyOf, if/then/else, additionalProperties). The scenario reads only the
 * first page of tools/list, so this tool is listed first in conformance mode.
 */
import { textResult } from '../content.ts';
import type { ToolDefinition } from '../tools.ts';

const CONTACT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  // A way to reach the person is required; which one follows the chosen method.
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword; this object is data, never awaited.
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

export const SCHEMA_TOOLS: readonly ToolDefinition[] = [
  {
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    inputSchema: CONTACT_SCHEMA,
    run: (args) => textResult(`contact recorded: ${JSON.stringify(args)}`),
  },
];
