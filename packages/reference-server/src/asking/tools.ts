/**
 * The tools that ask the client something: one definition each, serving both eras (a request
 * on the call's stream in legacy sessions, `input_required` in 2026-07-28).
 */
import type { ToolDefinition } from '../tools.ts';
import { ELICIT_TOOL } from './elicit.ts';
import { ELICIT_URL_TOOL } from './elicit-url.ts';
import { LIST_ROOTS_TOOL } from './list-roots.ts';
import { SAMPLE_TOOL } from './sample.ts';
import { SURVEY_TOOL } from './survey.ts';

export const ASKING_TOOLS: readonly ToolDefinition[] = [
  ELICIT_TOOL,
  ELICIT_URL_TOOL,
  SAMPLE_TOOL,
  LIST_ROOTS_TOOL,
  SURVEY_TOOL,
];
