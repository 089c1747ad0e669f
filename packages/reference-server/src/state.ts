import type { HostileSkill } from './skills.ts';

/**
 * Fixture state shared by every session of one server: tests observe it through tools and
 * resources, and each server instance starts from zero so tests stay independent.
 */
export class FixtureState {
  /** Page size for every paginated list. */
  readonly pageSize: number;
  /** Whether the conformance suite's fixtures (see conformance/) are offered as well. */
  readonly conformance: boolean;
  /** How many times the `count` tool ran. */
  calls = 0;
  /** The value behind `ref://counter`, raised by the `bump` tool. */
  counter = 0;
  /** Whether `toggle_tool` has currently added the `bonus` tool. */
  bonusTool = false;
  /** Whether the conformance hook `test_trigger_prompt_change` has added the prompt `bonus_prompt`. */
  bonusPrompt = false;
  /** The hostile skills switched on (`faults.hostileSkills`). */
  hostileSkills = new Set<HostileSkill>();

  constructor(pageSize: number, conformance = false) {
    this.pageSize = pageSize;
    this.conformance = conformance;
  }
}
