import type { ToolDefinition } from '../../tool-definition.js';
import { classifyEventTool } from '../rules/classify-event.js';
import { createClassificationRuleTool } from '../rules/create-classification-rule.js';
import { createProjectTool } from '../rules/create-project.js';
import { createRuleTool } from '../rules/create-rule.js';
import { createRuleFromDescriptionTool } from '../rules/create-rule-from-description.js';
import { deleteRuleTool } from '../rules/delete-rule.js';
import { explainClassificationTool } from '../rules/explain-classification.js';
import { getRuleSuggestionsTool } from '../rules/get-rule-suggestions.js';
import { getTimesheetTool } from '../rules/get-timesheet.js';
import { listProjectsTool } from '../rules/list-projects.js';
import { listRulesTool } from '../rules/list-rules.js';
import { previewRuleTool } from '../rules/preview-rule.js';
import { updateProjectTool } from '../rules/update-project.js';
import { updateRuleTool } from '../rules/update-rule.js';

/** The rules toolset: projects, classification rules and timesheets. In listing order. */
export const rulesTools: readonly ToolDefinition[] = [
  listProjectsTool,
  createProjectTool,
  updateProjectTool,
  createRuleTool,
  createClassificationRuleTool,
  updateRuleTool,
  deleteRuleTool,
  listRulesTool,
  previewRuleTool,
  classifyEventTool,
  explainClassificationTool,
  getTimesheetTool,
  getRuleSuggestionsTool,
  createRuleFromDescriptionTool,
];
