import type { PromptDefinition } from '../prompt-registry.js';
import { resumeWorkPrompt } from './memory-prompts.js';
import { weeklyTimesheetPrompt, writeRulePrompt } from './timesheet-prompts.js';

/** Every prompt Meridian serves, in prompts/list order; each is listed only when its toolset is on. */
export const PROMPTS: readonly PromptDefinition[] = [
  writeRulePrompt,
  weeklyTimesheetPrompt,
  resumeWorkPrompt,
];
