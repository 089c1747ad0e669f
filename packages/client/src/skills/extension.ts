/**
 * The skills extension's identifier (SEP-2640), declared in `capabilities.extensions` by both
 * sides. Apart from the rest of skills/ so that declaring it loads none of the checks.
 */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
