/**
 * The `requestedSchema`s of the conformance elicitation tools, in the restricted JSON Schema the
 * 2025-11-25 elicitation spec allows: a flat object of primitive properties.
 */
import type { JsonObject } from '../jsonrpc.ts';

/** tools-call-elicitation: two required strings. */
export const USER_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    username: { type: 'string', description: "User's response" },
    email: { type: 'string', description: "User's email address" },
  },
  required: ['username', 'email'],
};

/** elicitation-sep1034-defaults: every primitive type with a `default` (SEP-1034). */
export const DEFAULTS_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: {
      type: 'string',
      description: 'User status',
      enum: ['active', 'inactive', 'pending'],
      default: 'active',
    },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
  required: [],
};

/** elicitation-sep1330-enums: the five enum schema variants of SEP-1330. */
export const ENUMS_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    untitledSingle: {
      type: 'string',
      description: 'Select one option',
      enum: ['option1', 'option2', 'option3'],
    },
    titledSingle: {
      type: 'string',
      description: 'Select one option with titles',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    // Deprecated in 2025-11-25, still part of the schema: enumNames titles a plain enum.
    legacyEnum: {
      type: 'string',
      description: 'Select one option (legacy)',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array',
      description: 'Select multiple options',
      minItems: 1,
      maxItems: 3,
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array',
      description: 'Select multiple options with titles',
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
  required: [],
};
